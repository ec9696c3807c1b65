// A behaviour's parameter struct with some fields set, in one expression:
//   Flee({{2, 0}}, with<FleeParams>([](auto& p) { p.radius = 8; }))
#pragma once

template <class P, class Set>
P with(Set set) {
  P params;
  set(params);
  return params;
}
