// support/random_checks.hpp.
#include "support/random_checks.hpp"

namespace random_checks {

using dmlref::ErrorCode;
using rc::Layer;

namespace {

std::string current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

}  // namespace

std::uint64_t stream() { return rc::fnv(current_test()); }

std::string replay(std::uint64_t seed) {
  return "replay: DMLREF_TEST_SEED=" + rc::hex(seed) + " dmlref_tests --gtest_filter='" + current_test() + "'";
}

std::uint64_t choice(std::uint64_t seed, int k, std::uint64_t n) { return rc::mix(seed + static_cast<std::uint64_t>(k)) % n; }

ErrorCode code_for(const rc::Run& oracle_run) {
  if (oracle_run.error.find(": index error:") != std::string::npos) return ErrorCode::index_out_of_range;
  if (oracle_run.error.find(": collision:") != std::string::npos) return ErrorCode::scatter_collision;
  return ErrorCode::ok;  // an oracle failure the generator should never cause
}

std::string mismatch(const rc::Case& c, const rc::Run& expected, Layer layer, const dmlref::Options& options) {
  const rc::LibRun got = rc::run_library(c, layer, options);
  std::string why;
  if (expected.ok) {
    if (!got.status.ok()) {
      why = "dmlref failed where the oracle succeeded: " + got.status.message();
    } else {
      const std::string diff = rc::first_difference(c, got.buffer, expected.buffer);
      if (!diff.empty()) why = "output differs from the oracle's: " + diff;
    }
  } else {
    if (got.status.ok()) {
      why = "dmlref succeeded where the oracle failed: " + expected.error;
    } else if (got.status.code() != code_for(expected)) {
      why = std::string("dmlref reported ") + dmlref::name(got.status.code()) + " (" + got.status.message() +
            "), the oracle: " + expected.error;
    }
    const std::string diff = rc::first_difference(c, got.buffer, c.initial_output());
    if (!diff.empty()) why += (why.empty() ? "" : "; ") + std::string("a failing call wrote to the output: ") + diff;
  }
  if (c.hash_inputs() != c.inputs_hash) why += (why.empty() ? "" : "; ") + std::string("dmlref modified an input buffer");
  return why.empty() ? why : std::string(rc::name(layer)) + ": " + why;
}

void Failures::add(const std::string& why) {
  if (why.empty()) return;
  case_failed_ = true;
  if (reported_cases_ < kReported) ADD_FAILURE() << why;
}

void Failures::end_case(const rc::Case& c) {
  ++cases_;
  if (!case_failed_) return;
  case_failed_ = false;
  if (reported_cases_ < kReported) ++reported_cases_;
  failing_.push_back(rc::hex(c.seed) + " (" + rc::name(c.op) + " D=" + std::to_string(c.input.sizes.size()) +
                     (c.op == rc::Op::gather ? " P=" + std::to_string(c.index_dimensions) : std::string()) + ")");
}

Failures::~Failures() {
  if (failing_.empty()) return;
  std::string seeds;
  for (std::size_t k = 0; k < failing_.size() && k < 40; ++k) seeds += "\n  " + failing_[k];
  ADD_FAILURE() << failing_.size() << " of " << cases_ << " cases failed (details above for the first " << kReported
                << "); seeds:" << seeds << (failing_.size() > 40 ? "\n  ..." : "");
}

void matches_oracle(rc::Op op, const rc::Config& cfg, int cases, bool short_buffers) {
  for_each_case(op, cfg, cases, [&](const rc::Case& c, Failures& failures) {
    const std::uint64_t seed = c.seed;
    const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, false);
    if (!expected.ok) failures.add("the generator made a case the oracle rejects: " + expected.error);
    failures.add(mismatch(c, expected, Layer::dispatch, {}));
    failures.add(mismatch(c, expected, Layer::typed_storage, {}));
    if (choice(seed, 1, 5) == 0) failures.add(mismatch(c, expected, Layer::typed_native, {}));
    if (short_buffers && choice(seed, 2, 10) == 0) {
      std::vector<rc::Short> tensors{rc::Short::input, rc::Short::indices, rc::Short::output};
      if (rc::is_scatter(op)) tensors.push_back(rc::Short::updates);
      const rc::Short which = tensors[choice(seed, 3, tensors.size())];
      const rc::LibRun got = rc::run_library(c, Layer::dispatch, {}, which);
      if (got.status.code() != ErrorCode::buffer_too_small)
        failures.add("TotalTensorSizeInBytes one byte short of the exact size gave " +
                     std::string(dmlref::name(got.status.code())) + ": " + got.status.message());
      const std::string diff = rc::first_difference(c, got.buffer, c.initial_output());
      if (!diff.empty()) failures.add("a call with a short buffer wrote to the output: " + diff);
    }
  });
}

std::string op_name(const ::testing::TestParamInfo<rc::Op>& info) { return rc::name(info.param); }

}  // namespace random_checks
