#ifndef UMESH_MINIAERO_RESULTS_HPP
#define UMESH_MINIAERO_RESULTS_HPP

// miniAero's `results` file (cell centroid and conservative state per line,
// tab-separated, default stream precision) and its regression criterion.

#include <string>
#include <vector>

namespace miniaero {

/// The lines of a results file for the solution [cell][5].
std::vector<std::string> results_lines(const std::vector<double> &centroids,
                                       const std::vector<double> &solution);
void write_results(const std::string &path, const std::vector<std::string> &lines);

/// Numbers of a reference file: one row per non-empty line; lines starting
/// with '#' are comments. A line past 4096 characters, or more than
/// `max_rows` rows (the cells compared), is an error: the file is not read
/// past what a reference of this mesh can hold.
std::vector<std::vector<double>> read_reference(const std::string &path, std::size_t max_rows);

/// miniAero's numeric_text_diff criterion: equal field counts per line, and
/// every pair of numbers with either above `floor` in magnitude within
/// `rel_tol` relative to the larger. Returns the number of lines that
/// differ; `report` gets the first few.
int compare_results(const std::vector<std::string> &lines,
                    const std::vector<std::vector<double>> &reference, double rel_tol, double floor,
                    std::string &report);

} // namespace miniaero

#endif
