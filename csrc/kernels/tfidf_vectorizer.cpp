// TfIdfVectorizer (opset 9) over integer tokens: X [C] or [B, C] (int32 / int64) -> Y [out] or
// [B, out] float32, out = max(ngram_indexes) + 1. The pool (pool_int64s, grouped by n-gram
// length through ngram_counts) becomes a trie; every row is scanned for n-grams of length
// min_gram_length..max_gram_length with skip distances 1..max_skip_count+1 (unigrams counted
// once, whatever the skip), as ONNX defines it. Rows are independent and spread over the pool.
// mode TF gives the counts, IDF weights[i] (or 1) where the count is > 0, TFIDF
// weights[i] * count. String pools (pool_strings) have no device dtype and are not supported.
#include <unordered_map>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

/** The n-gram pool as a trie: node 0 is the root; id > 0 marks the end of pool n-gram id - 1. */
struct NgramTrie {
  struct Node {
    int64_t id = 0;
    std::unordered_map<int64_t, int32_t> next;
  };
  std::vector<Node> nodes{1};

  int32_t child(int32_t at, int64_t token) const {
    const auto& m = nodes[static_cast<size_t>(at)].next;
    auto it = m.find(token);
    return it == m.end() ? -1 : it->second;
  }
  int32_t emplace(int32_t at, int64_t token) {
    auto it = nodes[static_cast<size_t>(at)].next.find(token);
    if (it != nodes[static_cast<size_t>(at)].next.end()) return it->second;
    const auto idx = static_cast<int32_t>(nodes.size());
    nodes[static_cast<size_t>(at)].next.emplace(token, idx);
    nodes.emplace_back();
    return idx;
  }
};

void run_tfidf_vectorizer(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  const Attrs& at = attrs_of(ctx);
  ACL_SIM_REQUIRE(x.dtype == ACL_INT32 || x.dtype == ACL_INT64, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": X must be int32 or int64 tokens, got ", dtype_name(x.dtype));
  ACL_SIM_REQUIRE(y.dtype == ACL_FLOAT, ACL_ERROR_OP_OUTPUT_NOT_MATCH, ctx.op_type, ": Y must be float32");
  ACL_SIM_REQUIRE(!at.has("pool_strings") || at.get_ints("pool_int64s").size() > 0, ACL_ERROR_OP_ATTR_NOT_MATCH,
                  ctx.op_type, ": pool_strings is not supported (string tensors have no device dtype)");
  const int64_t min_n = at.get_int("min_gram_length", 1), max_n = at.get_int("max_gram_length", 1);
  const int64_t max_skip = at.get_int("max_skip_count", 0);
  const std::string mode = at.get_string("mode", "TF");
  ACL_SIM_REQUIRE(mode == "TF" || mode == "IDF" || mode == "TFIDF", ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": unknown mode '", mode, "' (TF, IDF or TFIDF)");
  ACL_SIM_REQUIRE(min_n >= 1 && max_n >= min_n && max_skip >= 0, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  const std::vector<int64_t> counts = at.get_ints("ngram_counts");
  const std::vector<int64_t> indexes = at.get_ints("ngram_indexes");
  const std::vector<int64_t> pool = at.get_ints("pool_int64s");
  const std::vector<double> weights = at.get_floats("weights");
  ACL_SIM_REQUIRE(!indexes.empty(), ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": ngram_indexes is empty");
  int64_t out_size = 0;
  for (int64_t v : indexes) {
    ACL_SIM_REQUIRE(v >= 0, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type, ": negative ngram index ", v);
    out_size = std::max(out_size, v + 1);
  }
  ACL_SIM_REQUIRE(weights.empty() || static_cast<int64_t>(weights.size()) >= out_size, ACL_ERROR_OP_ATTR_NOT_MATCH,
                  ctx.op_type, ": weights has ", weights.size(), " values, the output has ", out_size);

  // Pool n-grams of length n occupy pool[counts[n-1], counts[n]); ids count every pool n-gram.
  NgramTrie trie;
  int64_t ngram_id = 1;
  const auto total = static_cast<int64_t>(pool.size());
  for (size_t i = 0; i < counts.size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) + 1;
    const int64_t begin = counts[i], end = i + 1 < counts.size() ? counts[i + 1] : total;
    ACL_SIM_REQUIRE(begin >= 0 && begin <= end && end <= total, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                    ": ngram_counts ", shape_str(counts), " does not fit a pool of ", total);
    const int64_t grams = (end - begin) / n;
    if (n < min_n || n > max_n) {
      ngram_id += grams;
      continue;
    }
    for (int64_t g = 0; g < grams; ++g, ++ngram_id) {
      int32_t node = 0;
      for (int64_t t = 0; t < n; ++t) node = trie.emplace(node, pool[static_cast<size_t>(begin + g * n + t)]);
      trie.nodes[static_cast<size_t>(node)].id = ngram_id;
    }
  }
  ACL_SIM_REQUIRE(ngram_id - 1 <= static_cast<int64_t>(indexes.size()), ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": the pool holds ", ngram_id - 1, " n-grams, ngram_indexes only ", indexes.size());

  const size_t rank = x.shape.size();
  ACL_SIM_REQUIRE(rank <= 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": X must be [C] or [B, C], got ",
                  shape_str(x.shape));
  const int64_t rows = rank == 2 ? x.shape[0] : 1, cols = rank == 0 ? 1 : x.shape[rank - 1];
  require_shape(ctx, y, rank == 2 ? std::vector<int64_t>{rows, out_size} : std::vector<int64_t>{out_size}, "Y");
  std::vector<int64_t> tokens = tensor_as_ints(x, ctx.op_type, "X");
  float* out = static_cast<float*>(y.data);
  parallel_blocks(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, cols)), [&](int64_t r0, int64_t r1) {
    std::vector<int64_t> freq(static_cast<size_t>(out_size));
    for (int64_t r = r0; r < r1; ++r) {
      std::fill(freq.begin(), freq.end(), 0);
      const int64_t* row = tokens.data() + r * cols;
      int64_t start_n = min_n;
      for (int64_t skip = 1; skip <= max_skip + 1; ++skip) {
        for (int64_t s = 0; s < cols; ++s) {
          if (s + skip * (start_n - 1) >= cols) break;  // no n-gram of the minimum length fits any more
          int32_t node = 0;
          for (int64_t n = 1, item = s; n <= max_n && item < cols; ++n, item += skip) {
            node = trie.child(node, row[item]);
            if (node < 0) break;
            const int64_t id = trie.nodes[static_cast<size_t>(node)].id;
            if (n >= start_n && id != 0) ++freq[static_cast<size_t>(indexes[static_cast<size_t>(id - 1)])];
          }
        }
        if (start_n == 1) {  // unigrams do not depend on the skip distance: counted once
          if (++start_n > max_n) break;
        }
      }
      float* yr = out + r * out_size;
      for (int64_t i = 0; i < out_size; ++i) {
        const auto f = freq[static_cast<size_t>(i)];
        const double w = weights.empty() ? 1.0 : weights[static_cast<size_t>(i)];
        double v = static_cast<double>(f);
        if (mode == "IDF") v = f > 0 ? w : 0.0;
        else if (mode == "TFIDF") v = w * static_cast<double>(f);
        yr[i] = static_cast<float>(v);
      }
    }
  });
}

}  // namespace

ACL_SIM_REGISTER_OP(TfIdfVectorizer, run_tfidf_vectorizer);

}  // namespace acl_sim::kern
