// The model's own measured errors, as interval dimensions (issue 18: "intervals carry parameter
// uncertainty and model error"). Each is a mechanism the simulator does not have, or has only
// at an assumed value, whose size the project measured on public data; the central prediction
// is never moved towards that data, only the band widened.
//
//   - the roofline at its default efficiency: compute x exp(N(0, 0.60^2)) (29 single-GPU steps);
//   - the one-node loss: each GPU's compute x exp(N(0, 0.054^2)) on rows with more than one GPU
//     per node (21 public 8-GPU nodes that reached 84-100% of 8x one GPU, against 97-100% modelled
//     with the slowest GPU charged);
//   - the network's price from the catalog alone: every collective across nodes x exp(N(0,
//     0.410^2)) on scenarios that cross nodes with no fitted network profile (255 measured
//     multi-node collectives of 12 AWS sources, priced by the catalog alone);
//   - the loss across nodes: each GPU's compute x exp(N(0, (0.0255 log2 nodes)^2)) on rows of
//     several nodes (43 public multi-node rows, their efficiency against their own one-node row);
//   - beyond the nodes a network band was measured on: every collective across nodes also
//     x exp(N(0, (0.224 d)^2)), d doublings further (the p3dn and p4d series held at 2-8 nodes).
//   - below the sizes a fitted profile measured, when it did not fit its latency: the catalog
//     price's 0.410 in place of the profile's residual spread (twin.cpp; knob network_scale_below).
#pragma once

#include <cstdint>
#include <string>

#include "sim/study/scenario.hpp"
#include "sim/study/uncertainty.hpp"

namespace ddpsim::sim {

// The roofline's error, when compute rests on the default efficiency (nothing measured, stated,
// traced or fitted). Returns whether it was added.
bool add_roofline_error(const ScenarioSpec& spec, Uncertainty& u);
std::string roofline_note(const ScenarioSpec& spec);

// The one-node loss, when some row runs more than one GPU per node and the compute was not
// calibrated on the user's runs (a job profile) or traced (a trace is of a real step).
// Returns whether it was added.
bool add_node_loss(const ScenarioSpec& spec, Uncertainty& u);
std::string node_loss_note();

// The catalog-only network price's error, when some row crosses nodes, no job profile is
// applied (or one fitted on one node only) and the network profile was not fitted (a fitted one
// brings its own residuals; one fitted on one-node logs alone measured nothing across nodes).
// Returns whether it was added. The sd is also what `ddpsim collective` quotes.
bool add_network_error(const ScenarioSpec& spec, Uncertainty& u);
std::string network_error_note();
double network_price_ln_sd();
// The measurements behind it, one clause, for the band's note and `ddpsim collective`'s.
std::string network_price_record();
// The factor at quantile q of exp(N(0, ln_sd^2)), exp(ln_sd x Phi^-1(q)): `ddpsim collective`
// divides a time by factor(0.9) for its p10 and multiplies it for its p90 (default: the
// catalog-only price's sd above).
double network_error_factor(double q, double ln_sd = network_price_ln_sd());

// A fitted profile's own error across nodes: the sample sd of ln(predicted / measured) over its
// multi-node residuals (rows < 2: none), and the most nodes they ran on. The predictions are the
// held-out ones (each row predicted by the fit without it: Residual::held_out_us) where every row
// has one, else the fit's own (a profile written before they were recorded). Scenarios draw it
// on network_scale (twin.cpp), `ddpsim collective` prints it.
struct ResidualSpread {
  double ln_sd = 0;
  int rows = 0, max_nodes = 0;
  bool held_out = false;
};
ResidualSpread profile_residual_spread(const Profile& prof, bool across_nodes = true);  // false: the one-node rows

// The Dimension::source of the two network bands above (the catalog's, a profile's residuals).
inline constexpr const char* kNetworkPriceSource = "network price error";
inline constexpr const char* kProfileResidualsSource = "profile residuals";

// How a network price's error grows beyond the node counts it was measured on (issue 18 item 4,
// round 4 session 28): d doublings further, the sd grows to sqrt(ln_sd^2 + (0.224 d)^2) (a drift,
// measured on the p3dn and p4d series the project holds at 2-8 nodes; model_error.cpp). Knob
// network_drift (sim/network/profile.hpp ScopeParams::drift).
double network_drift_ln_sd();
// The most nodes the price's error was measured on: a fitted profile's multi-node residuals', the
// catalog band's 2; 0 for a fitted profile without two multi-node residuals (no band at all).
int price_error_nodes(const Profile& prof);
double network_sd_at(double ln_sd, int measured_nodes, int nodes);
// The catalog price's band at `nodes` (0.410, with the drift beyond its 2 nodes).
double catalog_sd_at(int nodes);

// Below which size a fitted profile prices collectives across nodes with the catalog's latency
// (round 4 session 29): a scope fitted without rows below 1 MiB keeps NCCL's latency table (alpha
// is not identifiable there and stays 0, calibrate/fit.hpp), so below its smallest multi-node row
// nothing of the user's measured the latency that dominates, and the catalog price's measured
// error is the one that applies (the profile's residuals, all at larger sizes, say nothing of it).
// Returns that smallest size, or 0: the latency was fitted (a row below 1 MiB), or no fitted
// multi-node rows.
std::uint64_t unfitted_latency_below(const Profile& prof);
// Adds the drift where a network band (catalog or profile) is on and some row runs beyond the
// nodes that band was measured on. Returns whether it was added.
bool add_network_drift(const ScenarioSpec& spec, Uncertainty& u);
std::string network_drift_note(const ScenarioSpec& spec);

// The loss across nodes, when some row runs on several nodes and no job profile is applied (the
// user's rows calibrate it), or the one applied was fitted on rows of one node only (then nothing
// of the user's measured it: the public rows' measure stands beyond that node). Returns whether it
// was added.
bool add_doubling_loss(const ScenarioSpec& spec, Uncertainty& u);
std::string doubling_loss_note(const ScenarioSpec& spec);

}  // namespace ddpsim::sim
