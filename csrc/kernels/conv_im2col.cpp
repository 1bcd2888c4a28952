#include "kernels/conv_im2col.h"

#include <algorithm>
#include <vector>

#include "kernels/stride2_gather.h"

namespace acl_sim {

Im2ColSource::Im2ColSource(const float* x, int64_t channels, const SpatialGeometry& g) : x_(x), channels_(channels) {
  const int lead = 3 - g.nsp;
  for (int i = 0; i < 3; ++i) {
    const int j = i - lead;
    const bool real = j >= 0;
    in_[i] = real ? g.in[j] : 1;
    out_[i] = real ? g.out[j] : 1;
    k_[i] = real ? g.kernel[j] : 1;
    s_[i] = real ? g.stride[j] : 1;
    d_[i] = real ? g.dilation[j] : 1;
    p_[i] = real ? g.pad_begin[j] : 0;
  }
}

void Im2ColSource::pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width, float* dst) const {
  pack_strips(k0, kc, n0, n_valid, width, width, dst);
}

void Im2ColSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                               int64_t last_width, float* dst) const {
  const int64_t KW = k_[2], KH = k_[1], KD = k_[0];
  const int64_t OW = out_[2], OH = out_[1];
  const int64_t IW = in_[2], IH = in_[1], ID = in_[0];
  const int64_t sw = s_[2];

  // The columns split into runs that lie in one output row and one strip; the
  // runs are the same for every k row, so they are worked out once per call
  // (a call covers a whole tile, so this setup is paid once per K slice).
  struct Run {
    int64_t len, ow, ih0, id0;  // ih0/id0: input row/plane of the run for kernel offset 0
    int64_t dst_off, width;     // start of the run in row 0 of its strip, and that strip's row pitch
  };
  Run stack_runs[64];
  std::vector<Run> heap_runs;
  Run* runs = stack_runs;
  const int64_t nstrips = (n_valid + strip - 1) / strip;
  const int64_t max_runs = n_valid / OW + 2 + nstrips;
  if (max_runs > 64) {
    heap_runs.resize(static_cast<size_t>(max_runs));
    runs = heap_runs.data();
  }
  int64_t nruns = 0;
  {
    int64_t ow = n0 % OW, oh = (n0 / OW) % OH, od = n0 / (OW * OH);
    for (int64_t j = 0; j < n_valid;) {
      const int64_t s = j / strip, col = j - s * strip;
      const int64_t width = s == nstrips - 1 ? last_width : strip;
      const int64_t len = std::min({OW - ow, n_valid - j, strip - col});
      runs[nruns++] = Run{len, ow, oh * s_[1] - p_[1], od * s_[0] - p_[0], s * strip * kc + col, width};
      j += len;
      ow += len;
      if (ow == OW) {
        ow = 0;
        if (++oh == OH) {
          oh = 0;
          ++od;
        }
      }
    }
  }
  // Columns of the last strip past n_valid are zero in every row.
  const int64_t last_valid = n_valid - (nstrips - 1) * strip;
  float* last_strip = dst + (nstrips - 1) * strip * kc;

  // The valid output-column range per kernel column (0 <= ow*sw - pw + kw*dw < IW), computed once.
  int64_t lo_stack[16], hi_stack[16];
  std::vector<int64_t> lo_heap, hi_heap;
  int64_t* ow_lo = lo_stack;
  int64_t* ow_hi = hi_stack;
  if (KW > 16) {
    lo_heap.resize(static_cast<size_t>(KW));
    hi_heap.resize(static_cast<size_t>(KW));
    ow_lo = lo_heap.data();
    ow_hi = hi_heap.data();
  }
  for (int64_t kw = 0; kw < KW; ++kw) {
    const int64_t off_w = kw * d_[2] - p_[2];
    ow_lo[kw] = off_w >= 0 ? 0 : (-off_w + sw - 1) / sw;
    ow_hi[kw] = IW - 1 - off_w < 0 ? 0 : std::min(OW, (IW - 1 - off_w) / sw + 1);
  }

  // Kernel coordinates of row k0, then stepped incrementally (no divisions per row).
  int64_t kw = k0 % KW, kh = (k0 / KW) % KH, kd = (k0 / (KW * KH)) % KD, c = k0 / (KW * KH * KD);
  for (int64_t kk = 0; kk < kc; ++kk) {
    const float* plane = x_ + c * ID * IH * IW;
    const int64_t off_w = kw * d_[2] - p_[2];
    const int64_t lo_w = ow_lo[kw], hi_w = ow_hi[kw];
    const int64_t dh = kh * d_[1], dd = kd * d_[0];
    for (int64_t r = 0; r < nruns; ++r) {
      const Run& run = runs[r];
      const int64_t ih = run.ih0 + dh, id = run.id0 + dd;
      float* out = dst + run.dst_off + kk * run.width;
      const int64_t len = run.len;
      if (ih < 0 || ih >= IH || id < 0 || id >= ID) {
        std::fill(out, out + len, 0.f);
        continue;
      }
      const float* src = plane + (id * IH + ih) * IW + off_w;
      const int64_t lo = std::clamp(lo_w - run.ow, int64_t{0}, len), hi = std::clamp(hi_w - run.ow, lo, len);
      std::fill(out, out + lo, 0.f);
      if (sw == 1) {
        std::copy(src + run.ow + lo, src + run.ow + hi, out + lo);
      } else if (sw == 2 && hi - lo >= 16) {  // shorter runs: the call costs more than it saves
        gather_stride2_f32(src + (run.ow + lo) * 2, hi - lo, out + lo);
      } else {
        const float* s = src + run.ow * sw;
        for (int64_t t = lo; t < hi; ++t) out[t] = s[t * sw];
      }
      std::fill(out + hi, out + len, 0.f);
    }
    if (last_valid < last_width) std::fill(last_strip + kk * last_width + last_valid, last_strip + (kk + 1) * last_width, 0.f);
    if (++kw == KW) {
      kw = 0;
      if (++kh == KH) {
        kh = 0;
        if (++kd == KD) {
          kd = 0;
          ++c;
        }
      }
    }
  }
}

}  // namespace acl_sim
