// Reorderings by name and their options: parsing, checks and the text a plan
// file records (renumber.cpp computes the renumberings).
#include <umesh/renumber.hpp>

#include <umesh/partition.hpp>

#include <sstream>
#include <string>

namespace umesh {

const char *reorder_name(Reorder r) {
  switch (r) {
  case Reorder::none:
    return "none";
  case Reorder::gps:
    return "gps";
  case Reorder::rcm:
    return "rcm";
  case Reorder::metis:
    return "metis";
  case Reorder::builtin:
    return "builtin";
  }
  return "?";
}

Reorder parse_reorder(const std::string &name) {
  for (Reorder r : {Reorder::none, Reorder::gps, Reorder::rcm, Reorder::metis, Reorder::builtin})
    if (name == reorder_name(r))
      return r;
  detail::fail("unknown reordering '", name, "' (none, gps, rcm, metis, builtin)");
}

ReorderOptions parse_reorder_options(const std::string &name) {
  const std::string touch = "/first-touch";
  const std::size_t slash = name.find('/');
  ReorderOptions o;
  o.method = parse_reorder(name.substr(0, slash));
  if (slash == std::string::npos)
    return o;
  if (name.substr(slash) != touch || (o.method != Reorder::gps && o.method != Reorder::rcm))
    detail::fail("unknown reordering '", name,
                 "' (none, gps, rcm, metis, builtin; gps and rcm also as gps", touch, ", rcm",
                 touch, ")");
  o.other_points = OtherPoints::first_touch;
  return o;
}

bool reorder_available(Reorder r) {
  return r == Reorder::gps ? has_scotch() : r == Reorder::metis ? has_metis() : true;
}

namespace detail {

// reorder() calls it before compute_renumbering, which does not repeat it.
void check_reorder_options(const ReorderOptions &o) {
  if ((o.method == Reorder::metis || o.method == Reorder::builtin) && o.block_size < 1)
    fail("reorder '", reorder_name(o.method), "': block size ", o.block_size, " (must be >= 1)");
  if (o.other_points == OtherPoints::first_touch && o.method != Reorder::gps &&
      o.method != Reorder::rcm)
    fail("reorder '", reorder_name(o.method),
         "': first-touch numbering of the other sets applies to gps and rcm only");
}

std::string reorder_options_text(const ReorderOptions &o) {
  std::ostringstream os;
  os << "method=" << reorder_name(o.method);
  if (o.method == Reorder::metis || o.method == Reorder::builtin)
    os << " block_size=" << o.block_size;
  if (o.method == Reorder::metis)
    os << " metis_margin=" << o.metis_margin;
  if (o.other_points == OtherPoints::first_touch) // absent by default: older files still match
    os << " other_points=first_touch";
  return os.str();
}

} // namespace detail
} // namespace umesh
