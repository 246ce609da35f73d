# Fixture of the viewer tests: real reports and a host trace from the samples.
#   cmake -DMLP=... -DPIPELINE=... -DOOM=... -DOUT=dir -P make_fixtures.cmake
# OUT/mlp        two runs of the MLP sample, with a host trace: OUT/trace.pvti
# OUT/mlp-big    the same with --batch 64 (the comparison's "after")
# OUT/pipeline   the multi-IPU pipeline sample
# OUT/oom        the out-of-memory sample (it exits 1 after writing its report)
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

execute_process(COMMAND ${MLP} --steps 32 --steps-per-run 16 --batch 64 --reports ${OUT}/mlp-big --out ${OUT}/mlp-big
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp --batch 64 exited with ${status}")
endif()
execute_process(COMMAND ${PIPELINE} --reports ${OUT}/pipeline RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-pipeline exited with ${status}")
endif()
execute_process(COMMAND ${OOM} --reports ${OUT}/oom RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(NOT status EQUAL 1 OR NOT EXISTS ${OUT}/oom/profile.pop)
  message(FATAL_ERROR "tessera-oom should exit 1 after writing ${OUT}/oom/profile.pop (exited ${status})")
endif()
