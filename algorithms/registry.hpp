// Name -> algorithm. An explicit list (registry.cpp), checked for duplicates: adding an algorithm
// is its own .hpp/.cpp, one line in registry.cpp and one in CMakeLists.txt. Tests iterate it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace ddpsim::algo {

class Registry {
 public:
  static const Registry& instance();

  // Throws UserError naming the valid algorithms when `name` is unknown.
  const Algorithm& get(std::string_view name) const;
  const Algorithm* find(std::string_view name) const;
  std::vector<std::string_view> names() const;
  const std::vector<std::unique_ptr<Algorithm>>& all() const { return algorithms_; }

 private:
  Registry();
  void add(std::unique_ptr<Algorithm> a);
  std::vector<std::unique_ptr<Algorithm>> algorithms_;
};

}  // namespace ddpsim::algo
