#pragma once

#include "io/json_fields.h"
#include "scenario/transformer_config.h"

#include <string>

namespace ws {

// The JSON keys a transformer's shape is read from: the scenario's own ("hidden") or a Hugging
// Face config.json's ("hidden_size"). Messages name these keys.
struct TransformerKeys {
    std::string layers;
    std::string hidden;
    std::string heads;
    std::string kvHeads; // optional, default: heads
    std::string ffnHidden;
    std::string vocab;
    std::string experts;         // optional, default 1
    std::string expertsPerToken; // optional, default 1
};

// Limits that no real model comes near (the largest public ones have about 128 layers, width
// 25,600, 256k vocabulary, 256 experts): a value past them is a typo, and rejecting it keeps
// every size the simulator derives far inside a double's exact range.
inline constexpr int kMaxLayers = 1000;
inline constexpr int kMaxHidden = 1 << 20;    // 1,048,576
inline constexpr int kMaxHeads = 1 << 14;     // 16,384
inline constexpr int kMaxFfnHidden = 1 << 22; // 4,194,304
inline constexpr int kMaxVocab = 1 << 24;     // 16,777,216
inline constexpr int kMaxExperts = 4096;
inline constexpr double kMaxParameters = 1e14; // 100 trillion: ~60x the largest public model

// Reads layers, hidden, heads, kv heads, ffn width, vocabulary and experts (not the name or
// gatedMlp, which the two formats spell differently) and checks every TransformerConfig
// invariant: ranges, hidden % heads, heads % kvHeads, expertsPerToken <= experts.
TransformerConfig readTransformerShape(const JsonFields& fields, const TransformerKeys& keys);

// Rejects a model of more than kMaxParameters parameters, at `fields`' object as a whole
// (call after gatedMlp is known: it changes the count).
void checkParameterCount(const TransformerConfig& model, const JsonFields& fields);

} // namespace ws
