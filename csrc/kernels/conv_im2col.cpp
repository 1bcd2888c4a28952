#include "kernels/conv_im2col.h"

#include <algorithm>
#include <vector>

#include "kernels/isa_target.h"
#include "kernels/stride2_gather.h"

#if defined(ACL_SIM_ISA_X86)
#include <immintrin.h>
#endif

namespace acl_sim {
namespace {

/**
 * The tile's columns [n0, n0 + n_valid) split into runs that lie in one output row (OW columns) and one strip
 * (`strip` columns, the last `last_width`), in column order: emit(row, ow, len, dst_off, width) per run, with
 * row = n / OW (output rows counted across planes), dst_off the run's start in row 0 of its strip, width that
 * strip's row pitch. The runs are the same for every k row, so a pack works them out once per call. Returns
 * the number of runs (at most max_strip_runs()).
 */
template <class Emit>
int64_t for_each_strip_run(int64_t n0, int64_t n_valid, int64_t OW, int64_t strip, int64_t last_width, int64_t kc,
                           Emit emit) {
  const int64_t nstrips = (n_valid + strip - 1) / strip;
  int64_t count = 0;
  for (int64_t j = 0, ow = n0 % OW, row = n0 / OW; j < n_valid; ++count) {
    const int64_t s = j / strip, col = j - s * strip;
    const int64_t len = std::min({OW - ow, n_valid - j, strip - col});
    emit(row, ow, len, s * strip * kc + col, s == nstrips - 1 ? last_width : strip);
    j += len;
    ow += len;
    if (ow == OW) {
      ow = 0;
      ++row;
    }
  }
  return count;
}

int64_t max_strip_runs(int64_t n_valid, int64_t OW, int64_t strip) {
  return n_valid / OW + 2 + (n_valid + strip - 1) / strip;
}

/** The last strip's columns past n_valid, zeroed in every k row (the micro-kernels read the strip's whole width). */
struct StripTail {
  float* strip;
  int64_t valid, width;
  StripTail(float* dst, int64_t kc, int64_t n_valid, int64_t strip_cols, int64_t last_width) {
    const int64_t nstrips = (n_valid + strip_cols - 1) / strip_cols;
    strip = dst + (nstrips - 1) * strip_cols * kc;
    valid = n_valid - (nstrips - 1) * strip_cols;
    width = last_width;
  }
  void zero(int64_t kk) const {
    if (valid < width) std::fill(strip + kk * width + valid, strip + (kk + 1) * width, 0.f);
  }
};

#if defined(ACL_SIM_ISA_X86)
/**
 * Im2ColSource::pack_strips for a "same"-width stride-1 2-D conv (IW == OW, stride and dilation 1), whose strips
 * are whole vectors wide: there tap t's k row over output pixels p is the channel plane read at p + shift[t],
 * masked where the tap falls in the padding. So a k row is one masked load per 8 columns (a masked-off lane
 * neither reads nor faults) instead of a copy per output-row run: a 7x7 plane's runs are 7 columns long.
 * mask holds, per tap and 8-column group, -1 for a valid lane; group g's columns are the tile's 8g..8g+7 (the
 * strips are whole vectors wide, so the groups tile the columns in order) and its packed row starts at
 * dst + dst_off[g] + kk * width[g].
 * Stop 31 (AMD EPYC Zen 3, AVX2, 2 threads, in-model A/B, 200 pairs): the one-node 3x3 512->512 conv at 7x7
 * 0.93x the time (the run copies were 10% of it); resnet50's two such convs 0.92-0.97x, vgg19, densenet121 and
 * PP-OCR det 0.99-1.005 (their convs mostly take the other paths).
 */
ACL_SIM_TARGET_AVX2 void pack_shifted_rows(const float* x, int64_t volume, int64_t n0, int64_t k0, int64_t kc,
                                           int64_t taps, const int64_t* shift, int64_t groups, const int32_t* mask,
                                           const int64_t* dst_off, const int64_t* width, float* dst) {
  int64_t t = k0 % taps, c = k0 / taps;
  for (int64_t kk = 0; kk < kc; ++kk) {
    const float* src = x + c * volume + n0 + shift[t];
    const int32_t* m = mask + t * groups * 8;
    for (int64_t g = 0; g < groups; ++g) {
      const __m256i lanes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + g * 8));
      _mm256_storeu_ps(dst + dst_off[g] + kk * width[g], _mm256_maskload_ps(src + 8 * g, lanes));
    }
    if (++t == taps) {
      t = 0;
      ++c;
    }
  }
}
#endif

}  // namespace

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
#if defined(ACL_SIM_ISA_X86)
  if (KD == 1 && ID == 1 && IW == OW && sw == 1 && s_[1] == 1 && d_[1] == 1 && d_[2] == 1 && strip % 8 == 0 &&
      last_width % 8 == 0 && cpu_features().isa != KernelIsa::kScalar) {
    pack_shifted(k0, kc, n0, n_valid, strip, last_width, dst);
    return;
  }
#endif

  // The runs of the tile's columns, once per call (a call covers a whole tile, so this setup is paid once per
  // K slice).
  struct Run {
    int64_t len, ow, ih0, id0;  // ih0/id0: input row/plane of the run for kernel offset 0
    int64_t dst_off, width;     // start of the run in row 0 of its strip, and that strip's row pitch
  };
  thread_local std::vector<Run> run_buf;
  run_buf.resize(static_cast<size_t>(max_strip_runs(n_valid, OW, strip)));
  Run* const runs = run_buf.data();
  const int64_t nruns = for_each_strip_run(
      n0, n_valid, OW, strip, last_width, kc,
      [&, r = runs](int64_t row, int64_t ow, int64_t len, int64_t dst_off, int64_t width) mutable {
        *r++ = Run{len, ow, (row % OH) * s_[1] - p_[1], (row / OH) * s_[0] - p_[0], dst_off, width};
      });

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

  // Each run's copy for each kernel tap, worked out once per call: a k row is then the tap's list with the
  // row's channel plane as the base (the runs and their padding are the same for every channel). Per run and
  // row, the bounds arithmetic and the fill / copy calls of a few floats each cost about as much as the copy
  // (3x3 512->512 at 7x7: runs of 7 columns). Stop 25, in-model A/B on AVX2 (30 pairs): resnet50's im2col
  // convs 0.96-1.01x, all nodes 0.994; AVX-512 3x3/2 128 0.98x.
  struct TapRun {
    int64_t dst_off, width, len, lo, hi;  // the run's place in the strips, its valid columns [lo, hi)
    int64_t src;                          // offset of column 0 in a channel's volume (only [lo, hi) are read)
  };
  const int64_t taps = KD * KH * KW;
  thread_local std::vector<TapRun> tap_buf;
  tap_buf.resize(static_cast<size_t>(taps * nruns));
  TapRun* const tap_runs = tap_buf.data();  // one thread-local lookup (a call, in a shared library), not one per row
  for (int64_t kd = 0, t = 0; kd < KD; ++kd)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, ++t) {
        const int64_t off_w = kw * d_[2] - p_[2];
        for (int64_t r = 0; r < nruns; ++r) {
          const Run& run = runs[r];
          const int64_t ih = run.ih0 + kh * d_[1], id = run.id0 + kd * d_[0];
          TapRun& tr = tap_runs[t * nruns + r];
          tr.dst_off = run.dst_off;
          tr.width = run.width;
          tr.len = run.len;
          if (ih < 0 || ih >= IH || id < 0 || id >= ID) {
            tr.lo = tr.hi = 0;
            tr.src = 0;
            continue;
          }
          tr.lo = std::clamp(ow_lo[kw] - run.ow, int64_t{0}, run.len);
          tr.hi = std::clamp(ow_hi[kw] - run.ow, tr.lo, run.len);
          tr.src = (id * IH + ih) * IW + off_w + run.ow * sw;
        }
      }

  const StripTail tail(dst, kc, n_valid, strip, last_width);
  const int64_t volume = ID * IH * IW;
  int64_t t = k0 % taps, c = k0 / taps;
  for (int64_t kk = 0; kk < kc; ++kk) {
    const float* plane = x_ + c * volume;
    const TapRun* tr = tap_runs + t * nruns;
    for (int64_t r = 0; r < nruns; ++r) {
      const TapRun& q = tr[r];
      float* out = dst + q.dst_off + kk * q.width;
      const float* src = plane + q.src;
      for (int64_t j = 0; j < q.lo; ++j) out[j] = 0.f;
      if (sw == 1) {
        for (int64_t j = q.lo; j < q.hi; ++j) out[j] = src[j];
      } else if (sw == 2 && q.hi - q.lo >= 16) {  // shorter runs: the call costs more than it saves
        gather_stride2_f32(src + q.lo * 2, q.hi - q.lo, out + q.lo);
      } else {
        for (int64_t j = q.lo; j < q.hi; ++j) out[j] = src[j * sw];
      }
      for (int64_t j = q.hi; j < q.len; ++j) out[j] = 0.f;
    }
    tail.zero(kk);
    if (++t == taps) {
      t = 0;
      ++c;
    }
  }
}

void Im2ColSource::pack_shifted(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                                int64_t last_width, float* dst) const {
#if defined(ACL_SIM_ISA_X86)
  const int64_t KH = k_[1], KW = k_[2], OW = out_[2], IH = in_[1], IW = in_[2];
  const int64_t taps = KH * KW, nstrips = (n_valid + strip - 1) / strip;
  const int64_t groups = (nstrips - 1) * (strip / 8) + last_width / 8;
  // Per call (once per tile and K slice): the taps' shifts, the groups' places, each column's output pixel and
  // the masks.
  thread_local std::vector<int64_t> geom;
  thread_local std::vector<int32_t> masks;
  geom.resize(static_cast<size_t>(taps + 2 * groups + 16 * groups));
  masks.resize(static_cast<size_t>(taps * groups * 8));
  int64_t* const shift = geom.data();
  int64_t* const dst_off = shift + taps;
  int64_t* const width = dst_off + groups;
  int64_t* const oh = width + groups;  // column j's output row and column (j < n_valid)
  int64_t* const ow = oh + 8 * groups;
  for (int64_t j = 0, r = n0 / OW, q = n0 % OW; j < 8 * groups; ++j) {
    oh[j] = r;
    ow[j] = q;
    if (++q == OW) {
      q = 0;
      ++r;
    }
  }
  for (int64_t g = 0, s = 0; s < nstrips; ++s) {
    const int64_t w = s + 1 < nstrips ? strip : last_width;
    for (int64_t v = 0; v < w / 8; ++v, ++g) {
      dst_off[g] = s * strip * kc + v * 8;
      width[g] = w;
    }
  }
  for (int64_t kh = 0, t = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw, ++t) {
      const int64_t dh = kh - p_[1], dw = kw - p_[2];
      shift[t] = dh * IW + dw;
      int32_t* m = masks.data() + t * groups * 8;
      for (int64_t j = 0; j < 8 * groups; ++j) {  // the groups' columns are the tile's, in order
        const int64_t ih = oh[j] + dh, iw = ow[j] + dw;
        m[j] = j < n_valid && ih >= 0 && ih < IH && iw >= 0 && iw < IW ? -1 : 0;
      }
    }
  pack_shifted_rows(x_, IH * IW, n0, k0, kc, taps, shift, groups, masks.data(), dst_off, width, dst);
#else
  (void)k0, (void)kc, (void)n0, (void)n_valid, (void)strip, (void)last_width, (void)dst;
#endif
}

void PhasePlaneIm2ColSource::pack(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t width,
                                  float* dst) const {
  pack_strips(k0, kc, n0, n_valid, width, width, dst);
}

void PhasePlaneIm2ColSource::pack_strips(int64_t k0, int64_t kc, int64_t n0, int64_t n_valid, int64_t strip,
                                         int64_t last_width, float* dst) const {
  // Output pixel (oh, ow) of row k is xp[off[k] + oh * pitch + ow].
  struct Run {
    int64_t src, len, dst_off, width;
  };
  thread_local std::vector<Run> run_buf;
  run_buf.resize(static_cast<size_t>(max_strip_runs(n_valid, in_.OW, strip)));
  Run* const runs = run_buf.data();
  const int64_t nruns = for_each_strip_run(
      n0, n_valid, in_.OW, strip, last_width, kc,
      [&, r = runs](int64_t row, int64_t ow, int64_t len, int64_t dst_off, int64_t width) mutable {
        *r++ = Run{row * in_.pitch + ow, len, dst_off, width};
      });
  const StripTail tail(dst, kc, n_valid, strip, last_width);
  for (int64_t kk = 0; kk < kc; ++kk) {
    const float* base = in_.xp + in_.off[k0 + kk];
    for (int64_t r = 0; r < nruns; ++r) {
      const Run& q = runs[r];
      float* out = dst + q.dst_off + kk * q.width;
      const float* src = base + q.src;
      for (int64_t j = 0; j < q.len; ++j) out[j] = src[j];
    }
    tail.zero(kk);
  }
}

}  // namespace acl_sim
