# Fixture of the viewer's job tests: real poprun jobs of tests/distributed's collectives_probe,
# 2 instances x 2 replicas each, with every instance's profile.pop, debug.cbor and .pvti.
#   cmake -DPOPRUN=... -DPROBE=... -DOUT=dir -P make_job_fixtures.cmake
# OUT/job-a   instance 1 made slower (TESSERA_PROBE_SLOW_INSTANCE=1): slowest 1, fastest 0
# OUT/job-b   collectives of 3000 floats: the same shape, other figures (the comparison's "after")
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
# Open MPI refuses root unless told (CI runs as root); poprun adds --allow-run-as-root as well.
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
set(ENV{TESSERA_THREADS} 1)
foreach(job a b)
  set(dir ${OUT}/job-${job})
  set(ENV{POPLAR_ENGINE_OPTIONS} "{\"autoReport.all\":\"true\",\"autoReport.directory\":\"${dir}\"}")
  set(ENV{PVTI_OPTIONS} "{\"enable\":\"true\",\"directory\":\"${dir}\"}")
  if(job STREQUAL "a")
    set(ENV{TESSERA_PROBE_SLOW_INSTANCE} 1)
    unset(ENV{TESSERA_PROBE_ELEMENTS})
  else()
    unset(ENV{TESSERA_PROBE_SLOW_INSTANCE})
    set(ENV{TESSERA_PROBE_ELEMENTS} 3000)
  endif()
  execute_process(COMMAND ${POPRUN} --num-instances 2 --num-replicas 4 ${PROBE}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "poprun of job-${job} exited with ${status}:\n${out}\n${err}")
  endif()
  foreach(i 0 1)
    file(GLOB traces ${dir}/instance_${i}/*.pvti)
    if(NOT EXISTS ${dir}/instance_${i}/profile.pop OR NOT traces)
      message(FATAL_ERROR "job-${job}/instance_${i} has no profile.pop or no .pvti")
    endif()
  endforeach()
endforeach()
