# Fixture of the CLI tests: real reports and a host trace from the MLP sample, and a report of the
# pipeline sample.
#   cmake -DMLP=path/to/tessera-mlp -DPIPELINE=path/to/tessera-pipeline -DOUT=dir -P make_reports.cmake
# OUT/base       --steps 32 --steps-per-run 16 (two runs), with a .pvti trace in OUT/trace
# OUT/big        the same with --batch 64: larger activations, more memory and cycles
# OUT/pipeline   the pipeline sample: another program on two IPUs (an unrelated comparison)
# OUT/rules-model, OUT/rules-ipu   tessera-cycle-rules-report (-DCYCLE_RULES=...): vertices two
#                rules cost on an IPU Model, and the same program on simulated hardware; each
#                with its printProfileSummary in OUT/rules-<device>.txt
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(ENV{PVTI_OPTIONS} "{\"enable\":\"true\",\"directory\":\"${OUT}/trace\"}")
execute_process(COMMAND ${MLP} --steps 32 --steps-per-run 16 --reports ${OUT}/base --out ${OUT}/base
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp (base) exited with ${status}")
endif()
unset(ENV{PVTI_OPTIONS})
execute_process(COMMAND ${MLP} --steps 32 --steps-per-run 16 --batch 64 --reports ${OUT}/big --out ${OUT}/big
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-mlp (--batch 64) exited with ${status}")
endif()
execute_process(COMMAND ${PIPELINE} --micro-batches 4 --reports ${OUT}/pipeline
  RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "tessera-pipeline exited with ${status}")
endif()
foreach(device model ipu)
  execute_process(COMMAND ${CYCLE_RULES} --device ${device} --reports ${OUT}/rules-${device}
    RESULT_VARIABLE status OUTPUT_FILE ${OUT}/rules-${device}.txt)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "tessera-cycle-rules-report --device ${device} exited with ${status}")
  endif()
endforeach()
file(GLOB traces ${OUT}/trace/*.pvti)
list(LENGTH traces n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .pvti in ${OUT}/trace, found ${n}")
endif()
