// Programs: the tree, per-type classes, visitor dispatch, per-tile values and variables.
#include "PvaTestUtil.hpp"

using pva::Program;

namespace {
struct TypeCounter : pva::ProgramVisitor {
  std::map<std::string, int> seen;
  void visitOnTileExecute(const pva::OnTileExecuteProgram& p) override {
    seen["OnTileExecute:" + p.computeset().name()]++;
  }
  void visitDoExchange(const pva::DoExchangeProgram& p) override {
    seen["DoExchange:" + std::to_string(p.dataBytes())]++;
  }
  void visitSync(const pva::SyncProgram& p) override { seen["Sync:" + p.syncType()]++; }
  void visitSequence(const pva::SequenceProgram&) override { seen["Sequence"]++; }
  void visitOnEveryTileSwitch(const pva::OnEveryTileSwitchProgram&) override {
    seen["OnEveryTileSwitch"]++;
  }
};
} // namespace

TEST_CASE("The program tree and a visitor over every program", "[pva][programs]") {
  test::RemoteSumReport r;
  const auto c = r.report.compilation();
  const auto programs = c.programs();
  for (std::size_t i = 0; i < programs.size(); ++i)
    CHECK(programs[i]->_id() == i);
  TypeCounter v;
  for (const auto& p : programs)
    p->accept(v);
  CHECK(v.seen == std::map<std::string, int>{{"DoExchange:16", 1},
                                             {"OnEveryTileSwitch", 1},
                                             {"OnTileExecute:sum", 1},
                                             {"Sequence", 1},
                                             {"Sync:INTERNAL", 1}});
  const auto entries = c.entryPoints();
  REQUIRE(entries.size() == 1);
  const auto children = entries[0]->children();
  REQUIRE(children.size() == 3);
  CHECK(children[0]->type() == Program::Type::Sync);
  CHECK(Program::typeName(children[1]->type()) == "DoExchange");
  CHECK(children[1]->codeBytesByTile() == std::vector<std::uint64_t>{12, 12, 0, 0});
  CHECK(children[1]->estimatedCyclesByTile() == std::vector<std::uint64_t>{13, 13, 0, 0});
  CHECK(children[2]->controlCodeByTile() == std::vector<std::uint64_t>{16, 0, 0, 0});
  CHECK(children[0]->isStep());
  CHECK_FALSE(entries[0]->isStep());
  // Arrays a program has nothing in are zeros on every tile, not empty (clients index them).
  CHECK(entries[0]->estimatedCyclesByTile() == std::vector<std::uint64_t>(4, 0));
  CHECK(children[0]->codeBytesByTile() == std::vector<std::uint64_t>(4, 0));
  // A parent's control code includes its children's.
  std::vector<std::uint64_t> sum(4, 0);
  for (const auto& ch : children)
    for (std::size_t t = 0; t < 4; ++t)
      sum[t] += ch->controlCodeByTile()[t];
  CHECK(entries[0]->controlCodeByTile() == sum);

  const auto vars = children[2]->vars();
  REQUIRE(vars.size() == 3);
  CHECK(vars[0].name() == "a");
  CHECK(vars[0].alwaysLive());
  CHECK(vars[0].bytes() == 32);
  CHECK(vars[0].access() == pva::ProgramVariable::Access::Read);
  CHECK(vars[1].name() == "out");
  CHECK(vars[1].access() == pva::ProgramVariable::Access::Write);

  // Programs compare and hash by identity, and keep the report open by themselves.
  CHECK(*programs[0] == *c.program(0));
  CHECK(*programs[0] != *programs[1]);
  REQUIRE(children[2]->debugContext());
  CHECK(children[2]->debugContext()->name() == "sum");
  CHECK_THROWS_AS(c.program(programs.size()), pva::InvalidArgumentError);
}

TEST_CASE("A program outlives the Report object it came from", "[pva][programs]") {
  pva::ProgramPtr p;
  {
    test::RemoteSumReport r;
    p = r.report.compilation().entryPoints().at(0);
  }
  CHECK(p->children().size() == 3);
  CHECK(p->children()[2]->type() == Program::Type::OnTileExecute);
}
