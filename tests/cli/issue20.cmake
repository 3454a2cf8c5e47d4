# Issue 20's CLI tests (included from tests/CMakeLists.txt).
# A real Slurm (slurmctld + slurmd + munged on one local node, private config in a temp dir):
# `sbatch --array=0-2` of a plan with --shard, merged == serial. Exit 77 = skipped with a reason.
add_test(NAME cli.slurm
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/slurm.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 420 RUN_SERIAL TRUE)
# docs/clusters.md's Kubernetes Indexed Job: each pod's command with JOB_COMPLETION_INDEX.
add_test(NAME cli.k8s_manifest
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/k8s_manifest.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
# `ddpsim expect`: expected busbw with p10/p50/p90 and provenance; --check grades a log.
add_test(NAME cli.expect
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh $<TARGET_FILE:ddpsim> ${CMAKE_CURRENT_SOURCE_DIR}/data)
# `ddpsim calibrate export --nccl-tuner`: read as NCCL's example tuner plugin reads it, re-derived.
add_test(NAME cli.tuner_export
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/tuner_export.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
# The first ten minutes and the defect list (one check each).
add_test(NAME cli.first_ten_minutes
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/first_ten_minutes.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
add_test(NAME cli.issue20_defects
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/issue20_defects.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
# The plan chart's labels measured in headless Chromium: none meets a marker, a label or other text.
add_test(NAME cli.plan_labels
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/plan_labels.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.plan_labels PROPERTIES TIMEOUT 180)
