# Two network namespaces joined by a veth pair, for scripts/two-hosts and scripts/local-slurm
# (sourced; needs root and iproute2). netns_pair_up makes them and sets NETNS_A, NETNS_B
# (their names), NETNS_IP_A, NETNS_IP_B (their addresses) and NETNS_NET (the /24 between
# them, one per process so that two pairs never meet); netns_pair_down removes both.
netns_pair_up() {
  local tag=rl$$
  NETNS_A=$tag-a
  NETNS_B=$tag-b
  NETNS_NET=10.$((100 + $$ % 100)).$(($$ / 100 % 250)).0/24
  NETNS_IP_A=${NETNS_NET%.0/24}.1
  NETNS_IP_B=${NETNS_NET%.0/24}.2
  ip netns add "$NETNS_A"
  ip netns add "$NETNS_B"
  ip link add "$tag"a type veth peer name "$tag"b
  ip link set "$tag"a netns "$NETNS_A"
  ip link set "$tag"b netns "$NETNS_B"
  ip -n "$NETNS_A" addr add "$NETNS_IP_A/24" dev "$tag"a
  ip -n "$NETNS_B" addr add "$NETNS_IP_B/24" dev "$tag"b
  ip -n "$NETNS_A" link set lo up
  ip -n "$NETNS_B" link set lo up
  ip -n "$NETNS_A" link set "$tag"a up
  ip -n "$NETNS_B" link set "$tag"b up
}

netns_pair_down() {
  ip netns del "${NETNS_A:-}" 2>/dev/null || true
  ip netns del "${NETNS_B:-}" 2>/dev/null || true
}
