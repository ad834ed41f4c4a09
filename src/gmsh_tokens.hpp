#ifndef UMESH_SRC_GMSH_TOKENS_HPP
#define UMESH_SRC_GMSH_TOKENS_HPP

// Library-internal: the Gmsh reader's tokenizer. Words of a .msh file with
// the line they are on, each number read whole and in its type's range, and
// every error naming the source and the line.

#include <umesh/detail/decimal.hpp>
#include <umesh/error.hpp>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <string>

namespace umesh::detail {

// Whitespace-separated tokens with line numbers for error messages.
class Tokens {
public:
  Tokens(std::istream &in, std::string source) : in_(in), source_(std::move(source)) {}

  [[noreturn]] void error(const std::string &what) const {
    detail::fail("gmsh file '", source_, "' line ", line_, ": ", what);
  }
  bool next(std::string &tok) {
    tok.clear();
    int c;
    while ((c = in_.get()) != EOF && std::isspace(c))
      if (c == '\n')
        ++line_;
    if (c == EOF)
      return false;
    if (c == '"') { // quoted string (physical names)
      while ((c = in_.get()) != EOF && c != '"') {
        if (c == '\n')
          error("unterminated quoted name");
        grow(tok, c);
      }
      if (c == EOF)
        error("unterminated quoted name");
      return true;
    }
    // (Taken with get() after the test: `&& in_.get()` ended a word at a NUL,
    // which get() returns as 0.)
    for (grow(tok, c); (c = in_.peek()) != EOF && !std::isspace(c);)
      grow(tok, in_.get());
    return true;
  }
  // Words are short (numbers, section and physical names): a longer one is
  // not a .msh file, and a pipe that never ends a word would take all
  // memory (and a whole file's worth of text would go into the message).
  // A control byte (NUL, ESC, DEL...) is no part of a .msh text: read as
  // part of a word, a NUL ended the number before it ("12<NUL>34" read as
  // 12), as a separator would.
  void grow(std::string &tok, int c) {
    if ((c >= 0 && c < 0x20 && c != '\t') || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", unsigned(c));
      error(std::string(c == 0 ? "a NUL byte" : "a control byte") + " (" + code + ") in a field" +
            (tok.empty() ? "" : " after '" + printable(tok) + "'") + ": not a text .msh file?");
    }
    if (tok.size() == 4096)
      error("a word longer than 4096 characters ('" + tok.substr(0, 32) +
            "...'): not a .msh file?");
    tok.push_back(char(c));
  }
  static std::string printable(const std::string &t) {
    return t.size() > 32 ? t.substr(0, 32) + "..." : t;
  }
  std::string word(const char *what) {
    std::string t;
    if (!next(t))
      error(std::string("file ends where ") + what + " was expected (truncated?)");
    return t;
  }
  long long integer(const char *what) {
    const std::string t = word(what);
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (t.empty() || *end)
      error(std::string("expected ") + what + " (an integer), found '" + t + "'");
    if (errno == ERANGE) // strtoll clamps: a wrong tag, not a big one
      error(std::string(what) + " " + t + " is out of range");
    return v;
  }
  // A tag or code kept as an int: one past its range would alias another.
  int int32(const char *what) {
    const long long v = integer(what);
    if (v < INT_MIN || v > INT_MAX)
      error(std::string(what) + " " + std::to_string(v) + " is out of range (32-bit)");
    return int(v);
  }
  int count(const char *what) {
    const long long v = integer(what);
    if (v < 0 || v > 2000000000)
      error(std::string(what) + " " + std::to_string(v) + " is out of range");
    return int(v);
  }
  double real(const char *what) {
    const std::string t = word(what);
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end)
      error(std::string("expected ") + what + " (a number), found '" + t + "'");
    if (!std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1))
      error(std::string(what) + " '" + t + "' is not a finite number");
    if (!is_decimal_real(t)) // strtod reads "0x1p3" too; Gmsh writes decimal
      error(std::string(what) + " '" + t + "' is not a decimal number");
    return v;
  }
  void expect(const std::string &want) {
    const std::string t = word(want.c_str());
    if (t != want)
      error("expected '" + want + "', found '" + t + "'");
  }
  void skip_section(const std::string &name) {
    const std::string end = "$End" + name.substr(1);
    std::string t;
    while (next(t))
      if (t == end)
        return;
    error("section " + name + " has no " + end + " (truncated?)");
  }

private:
  std::istream &in_;
  std::string source_;
  long long line_ = 1;
};

} // namespace umesh::detail

#endif
