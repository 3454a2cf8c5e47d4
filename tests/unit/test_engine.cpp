#include <catch2/catch.hpp>
#include <string>

#include "core/error.hpp"
#include "sim/engine/engine.hpp"

using namespace ddpsim;

TEST_CASE("events run in time order, ties in scheduling order")
{
  sim::Engine e;
  std::string log;
  e.at(Time{30}, [&] { log += "c"; });
  e.at(Time{10}, [&] { log += "a"; });
  e.at(Time{30}, [&] { log += "d"; });
  e.at(Time{20}, [&] {
    log += "b";
    e.after(Time{10}, [&] { log += "e"; });  // same time as c and d, scheduled later
  });
  CHECK(e.run() == Time{30});
  CHECK(log == "abcde");
  CHECK(e.events_processed() == 5);
}

TEST_CASE("scheduling in the past is an internal error")
{
  sim::Engine e;
  e.at(Time{10}, [&] { e.at(Time{5}, [] {}); });
  CHECK_THROWS_AS(e.run(), InternalError);
}
