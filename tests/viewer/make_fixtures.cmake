# Fixture of the viewer tests: real reports and a host trace from the samples.
#   cmake -DMLP=... -DPIPELINE=... -DOOM=... -DTRACE_WRITER=... -DOUT=dir -P make_fixtures.cmake
# OUT/mlp        two runs of the MLP sample, with a host trace: OUT/trace.pvti
# OUT/mlp-big    the same with --batch 64 (the comparison's "after")
# OUT/mlp-4runs  the MLP sample run four times (64 steps): against mlp-big, two reports of one
#                program with different run counts (totals fall while each run gets slower)
# OUT/mlp-blocks the MLP sample with lightweight profiling: every fwd/bwd program timed as an
#                implicit Block, stream copies instrumented (POPLAR_ENGINE_OPTIONS)
# OUT/pipeline   the multi-IPU pipeline sample
# OUT/oom        the out-of-memory sample (it exits 1 after writing its report)
# OUT/rich.pvti  a host trace written by viewer_trace_writer (-DTRACE_WRITER=...)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{PVTI_OPTIONS} "{\"enable\":\"true\",\"directory\":\"${OUT}/trace-dir\"}")
execute_process(COMMAND ${MLP} --steps 32 --steps-per-run 16 --reports ${OUT}/mlp --out ${OUT}/mlp
  RESULT_VARIABLE status OUTPUT_QUIET)
unset(ENV{PVTI_OPTIONS})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp exited with ${status}")
endif()
file(GLOB traces ${OUT}/trace-dir/*.pvti)
list(LENGTH traces n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .pvti in ${OUT}/trace-dir, found ${n}")
endif()
file(RENAME ${traces} ${OUT}/trace.pvti)

# OUT/rich.pvti: viewer_trace_writer's trace (two threads, instants, a graph, a heatmap)
set(ENV{PVTI_OPTIONS} "{\"enable\":\"true\",\"directory\":\"${OUT}/rich-dir\"}")
execute_process(COMMAND ${TRACE_WRITER} RESULT_VARIABLE status OUTPUT_VARIABLE rich OUTPUT_STRIP_TRAILING_WHITESPACE)
unset(ENV{PVTI_OPTIONS})
if(NOT status EQUAL 0 OR NOT EXISTS "${rich}")
  message(FATAL_ERROR "viewer_trace_writer exited with ${status} (trace: '${rich}')")
endif()
file(RENAME ${rich} ${OUT}/rich.pvti)

execute_process(COMMAND ${MLP} --steps 32 --steps-per-run 16 --batch 64 --reports ${OUT}/mlp-big --out ${OUT}/mlp-big
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp --batch 64 exited with ${status}")
endif()
execute_process(COMMAND ${MLP} --steps 64 --steps-per-run 16 --reports ${OUT}/mlp-4runs --out ${OUT}/mlp-4runs
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp --steps 64 exited with ${status}")
endif()
set(ENV{POPLAR_ENGINE_OPTIONS}
  "{\"profiler.programs.filter\":\"fwd.*|bwd.*\",\"debug.instrumentExternalExchange\":\"true\"}")
execute_process(COMMAND ${MLP} --steps 8 --steps-per-run 4 --reports ${OUT}/mlp-blocks --out ${OUT}/mlp-blocks
  RESULT_VARIABLE status OUTPUT_QUIET)
unset(ENV{POPLAR_ENGINE_OPTIONS})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp with lightweight profiling exited with ${status}")
endif()
execute_process(COMMAND ${PIPELINE} --reports ${OUT}/pipeline RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-pipeline exited with ${status}")
endif()
execute_process(COMMAND ${OOM} --reports ${OUT}/oom RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(NOT status EQUAL 1 OR NOT EXISTS ${OUT}/oom/profile.pop)
  message(FATAL_ERROR "tessera-oom should exit 1 after writing ${OUT}/oom/profile.pop (exited ${status})")
endif()
