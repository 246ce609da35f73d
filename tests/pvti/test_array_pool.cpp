// The pool of a recording thread's ring arrays (libpvti/src/ArrayPool.hpp, issue 38): drained
// arrays come back for reuse instead of being freed and faulted in again, the thread never owns
// more than the bound, and a quiet thread gives back what it kept beyond a couple.
#include "ArrayPool.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <vector>

namespace {

using Pool = pvti::detail::ArrayPool<std::uint64_t, 1024>;
constexpr std::uint64_t kSecond = 1'000'000'000;

} // namespace

TEST_CASE("A drained array is handed out again, not a new one", "[pvti][pool]") {
  Pool pool;
  pool.reserveKept();
  auto ring = pool.first();
  REQUIRE(ring);
  CHECK(pool.arrays() == 1);
  auto a = pool.take(); // nothing kept yet: a new array, counted
  REQUIRE(a);
  CHECK(pool.arrays() == 2);
  a[0] = 42; // usable
  std::uint64_t* const address = a.get();
  pool.give(std::move(a), 5 * kSecond);
  CHECK(pool.kept() == 1);
  auto b = pool.take();
  CHECK(b.get() == address); // the same memory, already faulted in
  CHECK(b[0] == 42);
  CHECK(pool.arrays() == 2);
  CHECK(pool.kept() == 0);
}

TEST_CASE("A thread never owns more than kMaxArrays arrays", "[pvti][pool]") {
  Pool pool;
  pool.reserveKept();
  auto ring = pool.first();
  std::vector<Pool::Array> spilled;
  std::set<std::uint64_t*> distinct;
  while (auto a = pool.take()) {
    distinct.insert(a.get());
    spilled.push_back(std::move(a));
  }
  CHECK(pool.arrays() == Pool::kMaxArrays);
  CHECK(spilled.size() == Pool::kMaxArrays - 1); // the ring is one of them
  CHECK(distinct.size() == spilled.size());
  CHECK_FALSE(pool.take()); // at the bound: the thread must wait for the writer
  pool.give(std::move(spilled.back()), kSecond);
  spilled.pop_back();
  CHECK(pool.take()); // one came back: the thread goes on in it
  CHECK(pool.arrays() == Pool::kMaxArrays);
}

TEST_CASE("Arrays kept beyond a couple go back once none has come back for a while",
          "[pvti][pool]") {
  Pool pool;
  pool.reserveKept();
  auto ring = pool.first();
  std::vector<Pool::Array> spilled;
  for (int i = 0; i < 10; ++i)
    spilled.push_back(pool.take());
  const std::uint64_t t0 = 100 * kSecond;
  for (auto& a : spilled)
    pool.give(std::move(a), t0);
  CHECK(pool.kept() == 10);
  CHECK(pool.arrays() == 11);

  // Still in use recently: nothing is given back, however often the writer asks.
  CHECK(pool.trim(t0).empty());
  CHECK(pool.trim(t0 + Pool::kHoldNs - 1).empty());
  CHECK(pool.kept() == 10);

  // Quiet for kHoldNs: all but kKeptIdle go, and the count follows.
  auto freed = pool.trim(t0 + Pool::kHoldNs);
  CHECK(freed.size() == 10 - Pool::kKeptIdle);
  CHECK(pool.kept() == Pool::kKeptIdle);
  CHECK(pool.arrays() == 1 + Pool::kKeptIdle);
  CHECK(pool.trim(t0 + 100 * Pool::kHoldNs).empty()); // the last couple stay
}
