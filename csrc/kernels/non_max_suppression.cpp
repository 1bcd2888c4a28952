// NonMaxSuppression (a shape-setting op, op_registry.h): for every (batch,
// class), the boxes greedily kept in descending score order, each dropped when
// its IoU with an already kept box exceeds iou_threshold; output int64
// [selected, 3] rows (batch, class, box), batches then classes in order.
//
// The (batch, class) pairs are independent: they run as blocks on the pool,
// each into its own list, and the lists are concatenated afterwards. Semantics
// follow onnxruntime: scores must be > score_threshold (when given), equal
// scores keep the lower box index first, a box pair with no overlap or an empty
// box never suppresses, and at most max_output_boxes_per_class (default 0) are
// kept per class.
#include <algorithm>
#include <numeric>

#include "kernels/data_movement.h"
#include "kernels/shape_setting.h"

namespace acl_sim::kern {
namespace {

struct Box {
  float y1, x1, y2, x2;  // corners with y1 <= y2, x1 <= x2
};

Box corners(const float* b, bool center) {
  if (center) {  // [x_center, y_center, width, height]
    float xc = b[0], yc = b[1], w = b[2] * 0.5f, h = b[3] * 0.5f;
    return {yc - h, xc - w, yc + h, xc + w};
  }
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

bool suppresses(const Box& a, const Box& b, float iou_threshold) {
  float iy1 = std::max(a.y1, b.y1), ix1 = std::max(a.x1, b.x1);
  float iy2 = std::min(a.y2, b.y2), ix2 = std::min(a.x2, b.x2);
  if (iy2 <= iy1 || ix2 <= ix1) return false;
  float area_a = (a.y2 - a.y1) * (a.x2 - a.x1), area_b = (b.y2 - b.y1) * (b.x2 - b.x1);
  if (area_a <= 0.f || area_b <= 0.f) return false;
  float inter = (iy2 - iy1) * (ix2 - ix1);
  float uni = area_a + area_b - inter;
  if (uni <= 0.f) return false;
  return inter / uni > iou_threshold;
}

void run_nms(OpContext& ctx) {
  require_io(ctx, 2, 1);
  const TensorView& boxes = input(ctx, 0);
  const TensorView& scores = input(ctx, 1);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(boxes.dtype == ACL_FLOAT && scores.dtype == ACL_FLOAT, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "NonMaxSuppression: boxes and scores must be float32");
  ACL_SIM_REQUIRE(y.dtype == ACL_INT64, ACL_ERROR_OP_OUTPUT_NOT_MATCH, "NonMaxSuppression: output must be int64");
  ACL_SIM_REQUIRE(boxes.shape.size() == 3 && boxes.shape[2] == 4, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "NonMaxSuppression: boxes must be [batch, boxes, 4], got ", shape_str(boxes.shape));
  ACL_SIM_REQUIRE(scores.shape.size() == 3 && scores.shape[0] == boxes.shape[0] && scores.shape[2] == boxes.shape[1],
                  ACL_ERROR_OP_INPUT_NOT_MATCH, "NonMaxSuppression: scores ", shape_str(scores.shape),
                  " must be [batch, classes, boxes] for boxes ", shape_str(boxes.shape));
  const int64_t batches = boxes.shape[0], classes = scores.shape[1], n = boxes.shape[1];
  const TensorView* max_t = optional_input(ctx, 2);
  const TensorView* iou_t = optional_input(ctx, 3);
  const TensorView* score_t = optional_input(ctx, 4);
  const int64_t max_out = max_t && max_t->numel() ? std::min<int64_t>(std::max<int64_t>(scalar_as_int(*max_t), 0), n) : 0;
  const float iou_threshold = iou_t && iou_t->numel() ? float(scalar_as_double(*iou_t)) : 0.f;
  const bool has_score = score_t && score_t->numel();
  const float score_threshold = has_score ? float(scalar_as_double(*score_t)) : 0.f;
  ACL_SIM_REQUIRE(iou_threshold >= 0.f && iou_threshold <= 1.f, ACL_ERROR_OP_INPUT_NOT_MATCH,
                  "NonMaxSuppression: iou_threshold ", iou_threshold, " is outside [0, 1]");
  const bool center = attrs_of(ctx).get_int("center_point_box", 0) != 0;
  const float* bp = static_cast<const float*>(boxes.data);
  const float* sp = static_cast<const float*>(scores.data);

  const int64_t pairs = batches * classes;
  auto kept = std::vector<std::vector<int64_t>>(size_t(pairs));
  if (max_out > 0) {
    parallel_blocks(pairs, 1, [&](int64_t p0, int64_t p1) {
      std::vector<int64_t> cand;
      std::vector<Box> chosen;
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t b = p / classes;
        const float* s = sp + p * n;
        cand.clear();
        for (int64_t i = 0; i < n; ++i)
          if (!has_score || s[i] > score_threshold) cand.push_back(i);
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t a, int64_t c) { return s[a] > s[c]; });
        chosen.clear();
        for (int64_t i : cand) {
          if (int64_t(chosen.size()) >= max_out) break;
          Box box = corners(bp + (b * n + i) * 4, center);
          bool keep = true;
          for (const Box& k : chosen)
            if (suppresses(box, k, iou_threshold)) {
              keep = false;
              break;
            }
          if (keep) {
            chosen.push_back(box);
            kept[size_t(p)].push_back(i);
          }
        }
      }
    });
  }
  int64_t total = 0;
  for (const auto& k : kept) total += int64_t(k.size());
  set_output_shape(ctx, y, {total, 3}, "selected_indices");
  int64_t* out = static_cast<int64_t*>(y.data);
  for (int64_t p = 0; p < pairs; ++p)
    for (int64_t i : kept[size_t(p)]) {
      out[0] = p / classes, out[1] = p % classes, out[2] = i;
      out += 3;
    }
}

}  // namespace

ACL_SIM_REGISTER_SHAPE_OP(NonMaxSuppression, run_nms);

}  // namespace acl_sim::kern
