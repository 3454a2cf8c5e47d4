# Issue 20's CLI tests (included from tests/CMakeLists.txt).
# A real Slurm (slurmctld + slurmd + munged on one local node, private config in a temp dir):
# `sbatch --array=0-2` of a plan with --shard, merged == serial. Exit 77 = skipped with a reason.
add_test(NAME cli.slurm
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/slurm.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 420 RUN_SERIAL TRUE)
# docs/clusters.md's Kubernetes Indexed Job: each pod's command with JOB_COMPLETION_INDEX.
add_test(NAME cli.k8s_manifest
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/k8s_manifest.sh $<TARGET_FILE:ddpsim> ${PROJECT_SOURCE_DIR})
