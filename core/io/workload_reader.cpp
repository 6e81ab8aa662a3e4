// parseWorkload and its writer: the scenario's `workload` (docs/training-model.md).
//
// Like the scenario reader, it throws ScenarioError(keyPath, problem) for the first problem
// found, checking the kind first (it decides which keys are known), then unknown keys, then
// the fields in the order the documentation lists them.

#include "io/workload_reader.h"

#include "io/huggingface_config.h"
#include "io/json_fields.h"
#include "io/json_values.h"
#include "io/scenario_limits.h"
#include "io/scenario_writer.h"
#include "io/strict_json.h"
#include "io/transformer_fields.h"
#include "scenario/scenario_error.h"
#include "workload/transformer_presets.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>

namespace ws {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kPath = "workload";
using namespace limits; // the workload's rows of io/scenario_limits.h

const std::vector<std::string> kTransformerKeys{"kind",
                                                "model",
                                                "hf_config",
                                                "seq_len",
                                                "global_batch",
                                                "dtype_bytes",
                                                "optimizer_bytes_per_param",
                                                "attention"};
const std::vector<std::string> kGemmKeys{"kind", "m", "k", "n", "dtype_bytes"};
const std::vector<std::string> kModelKeys{"name",     "layers",   "hidden",
                                          "heads",    "kv_heads", "ffn_hidden",
                                          "vocab",    "experts",  "experts_per_token",
                                          "gated_mlp"};

// A key of the other kind gets a message saying so, rather than a bare "unknown key".
void rejectOtherKindsKeys(const JsonFields& fields, const std::vector<std::string>& own,
                          const std::vector<std::string>& other, const std::string& otherKind,
                          const std::string& kind) {
    for (const std::string& key : other)
        if (fields.has(key) && std::find(own.begin(), own.end(), key) == own.end())
            fields.fail(key, "'" + key + "' belongs to a workload of kind \"" + otherKind +
                                 "\", not \"" + kind + "\"");
}

int readDtypeBytes(const JsonFields& fields) {
    if (!fields.has("dtype_bytes"))
        return 2;
    const std::int64_t bytes =
        fields.integer("dtype_bytes", std::numeric_limits<std::int64_t>::min(),
                       std::numeric_limits<std::int64_t>::max());
    if (bytes != 1 && bytes != 2 && bytes != 4)
        fields.fail("dtype_bytes",
                    "must be 1 (fp8), 2 (bf16/fp16) or 4 (fp32), got " + std::to_string(bytes));
    return static_cast<int>(bytes);
}

TransformerConfig readModelObject(const JsonFields& fields) {
    TransformerConfig model =
        readTransformerShape(fields, {"layers", "hidden", "heads", "kv_heads", "ffn_hidden",
                                      "vocab", "experts", "experts_per_token"});
    model.gatedMlp = fields.boolean("gated_mlp", false);
    model.name = fields.string("name", "custom");
    checkParameterCount(model, fields);
    return model;
}

// `model`: a model object (its "x-..." keys kept) or a preset's name.
void readModel(const JsonFields& fields, Workload& workload) {
    const json& value = *fields.find("model");
    if (value.is_object()) {
        const JsonFields object = JsonFields::nested(value, "workload.model");
        workload.modelExtensions = object.rejectUnknownKeys(kModelKeys);
        workload.model = readModelObject(object);
        workload.modelSource = ModelSource::Object;
        return;
    }
    if (!value.is_string())
        fields.fail("model", "expected a preset name or an object, got " + jsonTypeName(value));
    const std::string name = value.get<std::string>();
    if (std::optional<TransformerConfig> preset = transformerPreset(name)) {
        workload.model = *preset;
        workload.modelSource = ModelSource::Preset;
        return;
    }
    const std::vector<std::string> names = transformerPresetNames();
    fields.fail("model", "unknown model '" + name + "'" + didYouMean(name, names) +
                             "; the presets are " + joinedNames(names) +
                             " (or describe the model with an object, or give hf_config)");
}

TransformerConfig readHuggingFace(const JsonFields& fields,
                                  const std::filesystem::path& scenarioDirectory) {
    const std::string path = "workload.hf_config";
    const std::string written = fields.string("hf_config");
    if (written.empty())
        fields.fail("hf_config", "expected the path of a config.json, got an empty string");
    std::filesystem::path file(written);
    if (file.is_relative() && !scenarioDirectory.empty())
        file = scenarioDirectory / file;
    file = file.lexically_normal();
    const std::string quoted = "'" + file.string() + "'";

    std::error_code error;
    if (std::filesystem::is_directory(file, error))
        throw ScenarioError(path, quoted + " is a directory; expected a config.json file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw ScenarioError(path,
                            "cannot read " + quoted +
                                (std::filesystem::exists(file, error) ? "" : ": no such file"));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw ScenarioError(path, "cannot read " + quoted);

    try {
        return transformerFromHuggingFace(parseStrictJson(text.str()), path);
    } catch (const ScenarioError& problem) {
        // Syntax errors come located "line L, column C"; import errors at `path` already.
        const std::string where =
            problem.keyPath().empty() || problem.keyPath() == path ? "" : problem.keyPath() + ": ";
        throw ScenarioError(path, quoted + ": " + where + problem.problem());
    }
}

Workload readTransformer(const JsonFields& fields, const std::filesystem::path& directory) {
    Workload workload;
    workload.kind = WorkloadKind::Transformer;
    const bool hasModel = fields.has("model");
    const bool hasHuggingFace = fields.has("hf_config");
    if (hasModel && hasHuggingFace)
        fields.fail("hf_config", "give either model or hf_config, not both");
    if (!hasModel && !hasHuggingFace)
        fields.fail("model", "required key 'model' is missing (a preset name or an object; or "
                             "give hf_config, the path of a Hugging Face config.json)");
    if (hasHuggingFace) {
        workload.model = readHuggingFace(fields, directory);
        workload.modelSource = ModelSource::HuggingFace;
        workload.hfConfig = fields.string("hf_config");
    } else {
        readModel(fields, workload);
    }

    workload.seqLen = fields.integer("seq_len", 1, kMaxSeqLen, 2048);
    workload.globalBatch = fields.integer("global_batch", 1, kMaxGlobalBatch, 1);
    checkWorkloadSize(workload);
    workload.dtypeBytes = readDtypeBytes(fields);
    workload.optimizerBytesPerParameter =
        fields.number("optimizer_bytes_per_param", 0, kMaxOptimizerBytes, 12);
    const std::string attention = fields.string("attention", "flash");
    if (attention != "flash" && attention != "standard")
        fields.fail("attention", "unknown attention '" + attention + "'" +
                                     didYouMean(attention, {"flash", "standard"}) +
                                     " (expected \"flash\", online softmax and the default, or "
                                     "\"standard\", which keeps the s x s scores)");
    workload.attention = attention == "flash" ? AttentionKind::Flash : AttentionKind::Standard;
    return workload;
}

Workload readGemm(const JsonFields& fields) {
    Workload workload;
    workload.kind = WorkloadKind::Gemm;
    GemmShape& shape = workload.gemm;
    shape.m = static_cast<double>(fields.integer("m", 1, kMaxGemmSide));
    shape.k = static_cast<double>(fields.integer("k", 1, kMaxGemmSide));
    shape.n = static_cast<double>(fields.integer("n", 1, kMaxGemmSide));
    const auto checkOperand = [&](const std::string& key, const std::string& operand,
                                  double elements) {
        if (elements > kMaxGemmOperand)
            fields.fail(key, operand + " would have " + numberText(elements) +
                                 " elements; more than 2^40 (1099511627776) is not a realistic "
                                 "layer");
    };
    checkOperand("k", "the input I[m, k]", shape.m * shape.k);
    checkOperand("n", "the weight W[k, n]", shape.k * shape.n);
    checkOperand("n", "the output O[m, n]", shape.m * shape.n);
    workload.dtypeBytes = readDtypeBytes(fields);
    return workload;
}

} // namespace

Workload parseWorkload(const json& workload, const std::filesystem::path& scenarioDirectory) {
    if (!workload.is_object())
        throw ScenarioError(kPath, "expected an object, got " + jsonTypeName(workload));
    const JsonFields fields = JsonFields::nested(workload, kPath);
    if (!fields.has("kind"))
        fields.fail("kind", "required key 'kind' is missing; expected \"transformer\" or \"gemm\"");
    const std::string kind = fields.string("kind");
    if (kind == "transformer") {
        rejectOtherKindsKeys(fields, kTransformerKeys, kGemmKeys, "gemm", kind);
        json extensions = fields.rejectUnknownKeys(kTransformerKeys);
        Workload parsed = readTransformer(fields, scenarioDirectory);
        parsed.extensions = std::move(extensions);
        return parsed;
    }
    if (kind == "gemm") {
        rejectOtherKindsKeys(fields, kGemmKeys, kTransformerKeys, "transformer", kind);
        json extensions = fields.rejectUnknownKeys(kGemmKeys);
        Workload parsed = readGemm(fields);
        parsed.extensions = std::move(extensions);
        return parsed;
    }
    fields.fail("kind", "unknown kind '" + kind + "'" + didYouMean(kind, {"transformer", "gemm"}) +
                            "; expected \"transformer\" or \"gemm\"");
}

void checkWorkloadSize(const Workload& workload) {
    readIntegerInRange(json(workload.seqLen), "workload.seq_len", 1, kMaxSeqLen);
    readIntegerInRange(json(workload.globalBatch), "workload.global_batch", 1, kMaxGlobalBatch);
    if (workload.tokensPerStep() > kMaxTokensPerStep)
        failAt("workload.global_batch", "seq_len x global_batch is " +
                                            numberText(workload.tokensPerStep()) +
                                            " tokens per step; more than 2^36 (68719476736) is "
                                            "not a realistic step");
}

ordered_json toOrderedJson(const Workload& workload) {
    ordered_json out = ordered_json::object();
    if (workload.kind == WorkloadKind::Gemm) {
        out["kind"] = "gemm";
        out["m"] = static_cast<std::int64_t>(workload.gemm.m);
        out["k"] = static_cast<std::int64_t>(workload.gemm.k);
        out["n"] = static_cast<std::int64_t>(workload.gemm.n);
        out["dtype_bytes"] = workload.dtypeBytes;
    } else {
        out["kind"] = "transformer";
        const TransformerConfig& model = workload.model;
        switch (workload.modelSource) {
        case ModelSource::Preset:
            out["model"] = model.name;
            break;
        case ModelSource::HuggingFace:
            out["hf_config"] = workload.hfConfig;
            break;
        case ModelSource::Object: {
            ordered_json object = ordered_json::object();
            object["name"] = model.name;
            object["layers"] = model.layers;
            object["hidden"] = model.hidden;
            object["heads"] = model.heads;
            object["kv_heads"] = model.kvHeads;
            object["ffn_hidden"] = model.ffnHidden;
            object["vocab"] = model.vocab;
            object["experts"] = model.experts;
            object["experts_per_token"] = model.expertsPerToken;
            object["gated_mlp"] = model.gatedMlp;
            addExtensions(object, workload.modelExtensions);
            out["model"] = object;
            break;
        }
        }
        out["seq_len"] = workload.seqLen;
        out["global_batch"] = workload.globalBatch;
        out["dtype_bytes"] = workload.dtypeBytes;
        // Written "12", not "12.0": the scenario writer prints integral doubles as integers.
        out["optimizer_bytes_per_param"] = workload.optimizerBytesPerParameter;
        out["attention"] = toString(workload.attention);
    }
    addExtensions(out, workload.extensions);
    return out;
}

} // namespace ws
