// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <string>

#include <gtest/gtest.h>

#include <amdx/types.hpp>

namespace {

using amdx::ComputeMode;
using amdx::MemoryMode;
using amdx::Model;

TEST(Types, ModelNames) {
    EXPECT_EQ(amdx::to_string(Model::mi300x), "mi300x");
    EXPECT_EQ(amdx::to_string(Model::mi300a), "mi300a");
    EXPECT_EQ(amdx::to_string(Model::mi308x), "mi308x");
    EXPECT_EQ(amdx::to_string(Model::unknown), "unknown");
    EXPECT_EQ(amdx::to_string(static_cast<Model>(99)), "unknown");
}

TEST(Types, ModeNames) {
    EXPECT_EQ(amdx::to_string(ComputeMode::spx), "SPX");
    EXPECT_EQ(amdx::to_string(ComputeMode::tpx), "TPX");
    EXPECT_EQ(amdx::to_string(ComputeMode::cpx), "CPX");
    EXPECT_EQ(amdx::to_string(MemoryMode::nps1), "NPS1");
    EXPECT_EQ(amdx::to_string(MemoryMode::nps8), "NPS8");
    EXPECT_EQ(amdx::to_string(static_cast<MemoryMode>(31)), "unknown");
}

TEST(Types, UapiValues) {
    EXPECT_EQ(static_cast<unsigned>(Model::mi308x), AMDX_MODEL_MI308X);
    EXPECT_EQ(static_cast<unsigned>(ComputeMode::qpx), AMDX_COMPUTE_QPX);
    EXPECT_EQ(static_cast<unsigned>(MemoryMode::nps4), AMDX_MEMORY_NPS4);
}

TEST(Types, RoundTripEveryKnownValue) {
    for (unsigned v = AMDX_MODEL_MI300X; v <= AMDX_MODEL_MI308X; ++v) {
        const auto m = static_cast<Model>(v);
        EXPECT_EQ(amdx::parse_model(amdx::to_string(m)), m) << v;
    }
    for (unsigned v = AMDX_COMPUTE_SPX; v <= AMDX_COMPUTE_CPX; ++v) {
        const auto m = static_cast<ComputeMode>(v);
        EXPECT_EQ(amdx::parse_compute_mode(amdx::to_string(m)), m) << v;
    }
    for (unsigned v = AMDX_MEMORY_NPS1; v <= AMDX_MEMORY_NPS8; ++v) {
        const auto m = static_cast<MemoryMode>(v);
        EXPECT_EQ(amdx::parse_memory_mode(amdx::to_string(m)), m) << v;
    }
}

TEST(Types, ParseIsCaseInsensitive) {
    EXPECT_EQ(amdx::parse_model("MI300A"), Model::mi300a);
    EXPECT_EQ(amdx::parse_compute_mode("dpx"), ComputeMode::dpx);
    EXPECT_EQ(amdx::parse_memory_mode("Nps2"), MemoryMode::nps2);
}

TEST(Types, ParseRejectsUnknownAndJunk) {
    EXPECT_FALSE(amdx::parse_model("unknown"));
    EXPECT_FALSE(amdx::parse_model("mi300"));
    EXPECT_FALSE(amdx::parse_model(""));
    EXPECT_FALSE(amdx::parse_compute_mode("SPX "));
    EXPECT_FALSE(amdx::parse_compute_mode("unknown"));
    EXPECT_FALSE(amdx::parse_memory_mode("NPS3"));
}

} // namespace
