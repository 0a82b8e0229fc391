#!/bin/sh
# Regenerates the hwloc XML fixtures of tests/unit/test_topology.c: each is
# lstopo's export of an hwloc synthetic description, so that the test can
# check that loading the XML gives the same tree as the description itself.
# Run from this directory with hwloc >= 2.0's lstopo; commit the results.
set -e

# 2 sockets, one NUMA node and one L3 each, L2 shared by 2 cores, 2 PUs per
# core numbered as Linux numbers hyper-threads (core 0 = PUs 0 and 16).
lstopo -i "pack:2 [numa] l3:1 l2:4 core:2 pu:2(indexes=2*16:1*2)" \
	--of xml -f topo-2pack-16core-smt2.xml

# 2 sockets with 2 NUMA nodes each (hwloc adds a Group level for them),
# 2 L3 per NUMA node, 2 cores per L3, 2 PUs per core.
lstopo -i "pack:2 numa:2 l3:2 core:2 pu:2" \
	--of xml -f topo-2pack-4numa-16core-smt2.xml

# 2 sockets of 4 cores of which this process may use only PUs 4-7 (the
# second socket), as in a cgroup: the machine's allowed_cpuset is edited.
lstopo -i "pack:2 core:4 pu:1" --of xml - |
	sed '0,/allowed_cpuset="0x000000ff"/s//allowed_cpuset="0x000000f0"/' \
	> topo-2pack-8core-allowed-4-7.xml
grep -q 'allowed_cpuset="0x000000f0"' topo-2pack-8core-allowed-4-7.xml
