// exec::Auto's candidates from its executors and options
// (umesh/detail/auto_candidates.hpp): compiled once here rather than in every
// file that runs a loop under exec::Auto.
#include <umesh/detail/auto_candidates.hpp>
#include <umesh/error.hpp>
#include <umesh/exec_names.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace umesh::detail {

namespace {

/// Hierarchical variants at block size b: every staging x combine x
/// writeback that applies, blocks per team where they pipeline (GPUs),
/// register budgets where they apply (GPUs).
void add_hierarchical_candidates(int kind, const exec::AutoOptions &o, exec::Concurrency conc,
                                 int b, unsigned kernels, std::vector<AutoCandidate> &out) {
  const bool host = conc != exec::Concurrency::gpu;
  for (auto staging :
       {exec::Staging::all, exec::Staging::increments, exec::Staging::none, exec::Staging::reads})
    for (auto combine : exec::all_combines)
      for (auto writeback : {exec::Writeback::coloured, exec::Writeback::atomic}) {
        if (!exec::stages_increments(staging) &&
            (combine != exec::Combine::colours || writeback != exec::Writeback::coloured))
          continue;
        const auto h =
            exec::Hierarchical::Loop{}.with_staging(staging).with_combine(combine).with_writeback(
                writeback);
        for (int n : o.blocks_per_team) {
          if (n > 1 && (host || !exec::pipelinable(h)))
            continue; // would run one block per team: the n = 1 candidate
          for (int r : host ? std::vector<int>{0} : o.hier_registers) {
            const auto hn =
                exec::Hierarchical::Loop(h).with_blocks_per_team(n).with_max_registers(r);
            if (!exec::register_budget_problem(hn, b).empty() ||
                (exec::kernels_needed(hn, !host) & ~kernels) != 0)
              continue; // does not apply, or not compiled
            AutoCandidate c;
            c.kind = kind;
            c.loop_options = hn;
            c.block_size = b;
            c.name = exec::variant_name(hn) + "/b" + std::to_string(b);
            c.reproducible = exec::Hierarchical::reproducible(conc, hn);
            out.push_back(c);
          }
        }
      }
}

// The variants one candidate executor gives: by default one, named as the
// executor; those with loop options or a block size give theirs.
template <class Tag>
void auto_variants(Tag, int kind, const exec::AutoOptions &, exec::Concurrency conc, unsigned,
                   std::vector<AutoCandidate> &out) {
  AutoCandidate c;
  c.kind = kind;
  c.name = exec::name_of_v<Tag>;
  c.reproducible = Tag::reproducible(conc);
  out.push_back(c);
}

void auto_variants(exec::Hierarchical, int kind, const exec::AutoOptions &o, exec::Concurrency conc,
                   unsigned hier_kernels, std::vector<AutoCandidate> &out) {
  for (int b : o.block_sizes)
    add_hierarchical_candidates(kind, o, conc, b, hier_kernels, out);
}

// Per-point entries, and scratch atomics on GPU backends (host backends fold
// in place either way).
void auto_variants(exec::Segmented, int kind, const exec::AutoOptions &o, exec::Concurrency conc,
                   unsigned, std::vector<AutoCandidate> &out) {
  const bool host = conc != exec::Concurrency::gpu;
  for (int b : o.block_sizes)
    for (bool sa : {false, true})
      if (!(sa && host)) {
        AutoCandidate c;
        c.kind = kind;
        c.block_size = b;
        c.name = exec::variant_name(exec::SegmentedLoop{}.with_scratch_atomics(sa)) + "/b" +
                 std::to_string(b);
        c.scratch_atomics = sa;
        c.reproducible = exec::Segmented::reproducible(conc, exec::SegmentedLoop{});
        out.push_back(c);
      }
}

// Whole warps only, under each register budget on GPU backends.
void auto_variants(exec::WarpCombine, int kind, const exec::AutoOptions &o, exec::Concurrency conc,
                   unsigned, std::vector<AutoCandidate> &out) {
  const bool host = conc != exec::Concurrency::gpu;
  for (int b : o.block_sizes)
    if (b % 32 == 0 && b <= 1024)
      for (int bits : o.warp_maps)
        for (int r : host ? std::vector<int>{0} : o.warp_registers)
          if (r != 40 || b <= 512) {
            AutoCandidate c;
            c.kind = kind;
            c.block_size = b;
            c.name = exec::variant_name(
                         exec::WarpLoop{}.with_max_registers(r).with_compact_maps(bits == 16)) +
                     "/b" + std::to_string(b);
            c.max_registers = r;
            c.compact_maps = bits == 16;
            c.reproducible = exec::WarpCombine::reproducible(conc, exec::WarpLoop{});
            out.push_back(c);
          }
}

template <class... C>
void add_kind(exec::List<C...>, int kind, const exec::AutoOptions &o, exec::Concurrency conc,
              unsigned hier_kernels, std::vector<AutoCandidate> &out) {
  int k = 0;
  ((k++ == kind ? auto_variants(C{}, kind, o, conc, hier_kernels, out) : void()), ...);
}

} // namespace

void add_auto_candidates(AutoCandidate::Kind kind, int slot, const exec::AutoOptions &o,
                         exec::Concurrency c, unsigned hier_kernels,
                         std::vector<AutoCandidate> &out) {
  const std::size_t first = out.size();
  add_kind(AutoKinds{}, kind, o, c, hier_kernels, out);
  for (std::size_t i = first; i < out.size(); ++i)
    out[i].slot = slot;
  if (o.reproducible)
    out.erase(std::remove_if(out.begin() + std::ptrdiff_t(first), out.end(),
                             [](const AutoCandidate &a) { return !a.reproducible; }),
              out.end());
}

void check_reproducible_left(const exec::AutoOptions &o, const std::vector<AutoCandidate> &all,
                             const std::vector<AutoCandidate::Kind> &kinds, exec::Concurrency c) {
  if (!o.reproducible || !all.empty())
    return;
  const std::vector<std::string> names = exec::names(AutoKinds{});
  std::string listed;
  for (auto k : kinds)
    listed += (listed.empty() ? "" : ", ") + names[std::size_t(k)];
  fail("exec::Auto: with_reproducible() leaves no candidate: none of its executors (", listed,
       ") gives bitwise-reproducible results on ", exec::concurrency_name(c),
       "; list gather, colour or hierarchical among them (exec::AutoOf<exec::Gather, "
       "exec::GlobalColour, exec::Hierarchical>, or exec::AutoAll)");
}

void check_auto_options(const exec::AutoOptions &o) {
  if (o.trials < 1)
    fail("exec::Auto: trials must be at least 1, not ", o.trials);
  // Under 1 the fastest warm-up is over its own bound and every candidate
  // is pruned ("no candidate ran", with no reason).
  if (!(o.prune >= 1))
    fail("exec::Auto: prune ", o.prune,
         " (at least 1: the factor over the fastest warm-up past "
         "which a candidate is not timed)");
  if (o.final_rounds < 0 || o.finalists < 1 || !(o.final_margin >= 1))
    fail("exec::Auto: final rounds ", o.final_rounds, " (at least 0), finalists ", o.finalists,
         " (at least 1), final margin ", o.final_margin, " (at least 1)");
  for (int b : o.block_sizes)
    if (b < 1)
      fail("exec::Auto: block size ", b, " (must be >= 1)");
  for (int n : o.blocks_per_team)
    if (n < 1)
      fail("exec::Auto: blocks_per_team must be at least 1, got ", n);
  for (int r : o.warp_registers)
    if (!exec::WarpLoop::is_register_budget(r))
      fail("exec::Auto: warp register budget ", r, " is not 0, 40 or 64");
  for (int bits : o.warp_maps)
    if (bits != 32 && bits != 16)
      fail("exec::Auto: warp map entries of ", bits, " bits; 32 or 16");
  for (int r : o.hier_registers)
    if (!exec::HierarchicalLoopOptions::is_register_budget(r))
      fail("exec::Auto: hierarchical register budget ", r, " is not 0 or 48");
}

void keep_only(std::vector<AutoCandidate> &all, const std::vector<std::string> &only) {
  if (only.empty())
    return;
  for (const auto &name : only)
    if (std::none_of(all.begin(), all.end(),
                     [&](const AutoCandidate &c) { return c.name == name; })) {
      std::string names;
      for (const auto &c : all)
        names += (names.empty() ? "" : ", ") + c.name;
      fail("exec::Auto: candidate '", name,
           "' is not one of this plan's (its executor is not in the plan's candidate list, "
           "this backend or these options do not run it, or with_reproducible() left it out); "
           "it has: ",
           names);
    }
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const AutoCandidate &c) {
                             return std::find(only.begin(), only.end(), c.name) == only.end();
                           }),
            all.end());
}

} // namespace umesh::detail
