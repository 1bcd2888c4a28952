/**
 * @file acl_dvpp.h
 * DVPP image processing (JPEG/PNG codecs and the VPC crop/resize/colour engine)
 * with CANN's names, enum values and error codes. Part of acl_sim: image
 * pipelines written for CANN compile against it unchanged.
 *
 * Every *Async call validates its arguments at once (the documented
 * ACL_ERROR_INVALID_PARAM and friends come back from the call) and enqueues the
 * pixel work on the given stream; faults found while decoding (corrupt data)
 * surface from aclrtSynchronizeStream and set the output picture's ret code.
 * Video (VDEC/VENC), LUT/histogram, pyramid and border-making functions are not
 * provided (docs/dvpp.md). CANN requires ENABLE_DVPP_INTERFACE before this
 * header; acl_sim accepts it either way.
 */
#ifndef ACL_SIM_ACL_DVPP_H_
#define ACL_SIM_ACL_DVPP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct acldvppPicDesc acldvppPicDesc;
typedef struct acldvppBatchPicDesc acldvppBatchPicDesc;
typedef struct acldvppRoiConfig acldvppRoiConfig;
typedef struct acldvppResizeConfig acldvppResizeConfig;
typedef struct acldvppChannelDesc acldvppChannelDesc;
typedef struct acldvppJpegeConfig acldvppJpegeConfig;

/** Picture formats (values are CANN's). */
enum acldvppPixelFormat {
  PIXEL_FORMAT_YUV_400 = 0,
  PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1,  /* NV12: Y plane, then interleaved U,V at half width and height */
  PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2,  /* NV21: as NV12 with V first */
  PIXEL_FORMAT_YUV_SEMIPLANAR_422 = 3,
  PIXEL_FORMAT_YVU_SEMIPLANAR_422 = 4,
  PIXEL_FORMAT_YUV_SEMIPLANAR_444 = 5,
  PIXEL_FORMAT_YVU_SEMIPLANAR_444 = 6,
  PIXEL_FORMAT_YUYV_PACKED_422 = 7,
  PIXEL_FORMAT_UYVY_PACKED_422 = 8,
  PIXEL_FORMAT_YVYU_PACKED_422 = 9,
  PIXEL_FORMAT_VYUY_PACKED_422 = 10,
  PIXEL_FORMAT_YUV_PACKED_444 = 11,
  PIXEL_FORMAT_RGB_888 = 12,
  PIXEL_FORMAT_BGR_888 = 13,
  PIXEL_FORMAT_ARGB_8888 = 14,
  PIXEL_FORMAT_ABGR_8888 = 15,
  PIXEL_FORMAT_RGBA_8888 = 16,
  PIXEL_FORMAT_BGRA_8888 = 17,
  PIXEL_FORMAT_YUV_SEMI_PLANNER_420_10BIT = 18,
  PIXEL_FORMAT_YVU_SEMI_PLANNER_420_10BIT = 19,
  PIXEL_FORMAT_YVU_PLANAR_420 = 20,
  PIXEL_FORMAT_YVU_PLANAR_422 = 21,
  PIXEL_FORMAT_YVU_PLANAR_444 = 22,
  PIXEL_FORMAT_RGB_444 = 23,
  PIXEL_FORMAT_BGR_444 = 24,
  PIXEL_FORMAT_ARGB_4444 = 25,
  PIXEL_FORMAT_ABGR_4444 = 26,
  PIXEL_FORMAT_RGBA_4444 = 27,
  PIXEL_FORMAT_BGRA_4444 = 28,
  PIXEL_FORMAT_RGB_555 = 29,
  PIXEL_FORMAT_BGR_555 = 30,
  PIXEL_FORMAT_RGB_565 = 31,
  PIXEL_FORMAT_BGR_565 = 32,
  PIXEL_FORMAT_ARGB_1555 = 33,
  PIXEL_FORMAT_ABGR_1555 = 34,
  PIXEL_FORMAT_RGBA_1555 = 35,
  PIXEL_FORMAT_BGRA_1555 = 36,
  PIXEL_FORMAT_ARGB_8565 = 37,
  PIXEL_FORMAT_ABGR_8565 = 38,
  PIXEL_FORMAT_RGBA_8565 = 39,
  PIXEL_FORMAT_BGRA_8565 = 40,
  PIXEL_FORMAT_RGB_BAYER_8BPP = 50,
  PIXEL_FORMAT_RGB_BAYER_10BPP = 51,
  PIXEL_FORMAT_RGB_BAYER_12BPP = 52,
  PIXEL_FORMAT_RGB_BAYER_14BPP = 53,
  PIXEL_FORMAT_RGB_BAYER_16BPP = 54,
  PIXEL_FORMAT_BGR_888_PLANAR = 70,
  PIXEL_FORMAT_HSV_888_PACKAGE = 71,
  PIXEL_FORMAT_HSV_888_PLANAR = 72,
  PIXEL_FORMAT_LAB_888_PACKAGE = 73,
  PIXEL_FORMAT_LAB_888_PLANAR = 74,
  PIXEL_FORMAT_S8C1 = 75,
  PIXEL_FORMAT_S8C2_PACKAGE = 76,
  PIXEL_FORMAT_S8C2_PLANAR = 77,
  PIXEL_FORMAT_S16C1 = 78,
  PIXEL_FORMAT_U8C1 = 79,
  PIXEL_FORMAT_U16C1 = 80,
  PIXEL_FORMAT_S32C1 = 81,
  PIXEL_FORMAT_U32C1 = 82,
  PIXEL_FORMAT_U64C1 = 83,
  PIXEL_FORMAT_S64C1 = 84,
  PIXEL_FORMAT_YUV_SEMIPLANAR_440 = 1000,
  PIXEL_FORMAT_YVU_SEMIPLANAR_440 = 1001,
  PIXEL_FORMAT_FLOAT32 = 1002,
  PIXEL_FORMAT_BUTT = 1003,
  PIXEL_FORMAT_UNKNOWN = 10000
};
typedef enum acldvppPixelFormat acldvppPixelFormat;

/** Channel modes for acldvppSetChannelDescMode (a bit mask; 0 = all engines). */
enum acldvppChannelMode { DVPP_CHNMODE_VPC = 1, DVPP_CHNMODE_JPEGD = 2, DVPP_CHNMODE_JPEGE = 4 };
typedef enum acldvppChannelMode acldvppChannelMode;

/** Chroma subsampling of a JPEG, from acldvppJpegGetImageInfoV2. */
enum acldvppJpegFormat {
  ACL_JPEG_CSS_444 = 0,
  ACL_JPEG_CSS_422 = 1,
  ACL_JPEG_CSS_420 = 2,
  ACL_JPEG_CSS_GRAY = 3,
  ACL_JPEG_CSS_440 = 4,
  ACL_JPEG_CSS_411 = 5,
  ACL_JPEG_CSS_UNKNOWN = 1000
};
typedef enum acldvppJpegFormat acldvppJpegFormat;

/* ---- memory ---- */
/** Device memory for DVPP: 128-byte aligned start, ALIGN_UP(size,32)+32 usable bytes. Free with acldvppFree. */
ACL_FUNC_VISIBILITY aclError acldvppMalloc(void **devPtr, size_t size);
/** Free memory from acldvppMalloc (any other pointer: ACL_ERROR_INVALID_PARAM). */
ACL_FUNC_VISIBILITY aclError acldvppFree(void *devPtr);

/* ---- channels ---- */
ACL_FUNC_VISIBILITY acldvppChannelDesc *acldvppCreateChannelDesc(void);
ACL_FUNC_VISIBILITY aclError acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc);
/** Restrict a channel to some engines (acldvppChannelMode bits) before acldvppCreateChannel. */
ACL_FUNC_VISIBILITY aclError acldvppSetChannelDescMode(acldvppChannelDesc *channelDesc, uint32_t mode);
/** The id given by acldvppCreateChannel (0 before). */
ACL_FUNC_VISIBILITY uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc);
/** Open the channel on the current context's device. Processing calls need a created channel. */
ACL_FUNC_VISIBILITY aclError acldvppCreateChannel(acldvppChannelDesc *channelDesc);
/** Close the channel; the descriptor stays until acldvppDestroyChannelDesc. */
ACL_FUNC_VISIBILITY aclError acldvppDestroyChannel(acldvppChannelDesc *channelDesc);

/* ---- picture descriptions ---- */
ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppCreatePicDesc(void);
ACL_FUNC_VISIBILITY aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescData(acldvppPicDesc *picDesc, void *dataDev);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescSize(acldvppPicDesc *picDesc, uint32_t size);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescFormat(acldvppPicDesc *picDesc, acldvppPixelFormat format);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc, uint32_t width);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeight(acldvppPicDesc *picDesc, uint32_t height);
/** Bytes per row of the first plane. VPC: a multiple of 16 (of width*2 / *3 / *4 for packed formats). */
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescWidthStride(acldvppPicDesc *picDesc, uint32_t widthStride);
/** Rows of the first plane. VPC: a multiple of 2. */
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescHeightStride(acldvppPicDesc *picDesc, uint32_t heightStride);
ACL_FUNC_VISIBILITY aclError acldvppSetPicDescRetCode(acldvppPicDesc *picDesc, uint32_t retCode);
/* Getters return 0 / NULL / PIXEL_FORMAT_YUV_400 for an invalid description (and record the error). */
ACL_FUNC_VISIBILITY void *acldvppGetPicDescData(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescSize(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescWidth(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescHeight(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc *picDesc);
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc *picDesc);
/** 0 after a successful operation that wrote this picture, non-zero after a failed one. */
ACL_FUNC_VISIBILITY uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc *picDesc);

/** @p batchSize picture descriptions owned by the batch (reach them with acldvppGetPicDesc). */
ACL_FUNC_VISIBILITY acldvppBatchPicDesc *acldvppCreateBatchPicDesc(uint32_t batchSize);
ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppGetPicDesc(acldvppBatchPicDesc *batchPicDesc, uint32_t index);
ACL_FUNC_VISIBILITY aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc *batchPicDesc);

/* ---- regions of interest: inclusive pixel bounds; left/top even, right/bottom odd ---- */
ACL_FUNC_VISIBILITY acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                                             uint32_t bottom);
ACL_FUNC_VISIBILITY aclError acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig);
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigLeft(acldvppRoiConfig *config, uint32_t left);
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigRight(acldvppRoiConfig *config, uint32_t right);
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigTop(acldvppRoiConfig *config, uint32_t top);
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfigBottom(acldvppRoiConfig *config, uint32_t bottom);
ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfig(acldvppRoiConfig *config, uint32_t left, uint32_t right, uint32_t top,
                                                 uint32_t bottom);

/* ---- resize configuration ---- */
ACL_FUNC_VISIBILITY acldvppResizeConfig *acldvppCreateResizeConfig(void);
ACL_FUNC_VISIBILITY aclError acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig);
/** 0 (default) and 1: bilinear, OpenCV's pixel-centre mapping; 2: nearest (OpenCV); 3: bilinear and 4: nearest
 *  with TensorFlow's corner mapping. 5 (the vendor's high-order filter) gives ACL_ERROR_FEATURE_UNSUPPORTED. */
ACL_FUNC_VISIBILITY aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig *resizeConfig,
                                                                 uint32_t interpolation);
ACL_FUNC_VISIBILITY uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig *resizeConfig);

/* ---- JPEG encoder configuration ---- */
ACL_FUNC_VISIBILITY acldvppJpegeConfig *acldvppCreateJpegeConfig(void);
ACL_FUNC_VISIBILITY aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig *jpegeConfig);
/** Quality 0..100 (0 is treated as 100, as on the chip). */
ACL_FUNC_VISIBILITY aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig *jpegeConfig, uint32_t level);
ACL_FUNC_VISIBILITY uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig *jpegeConfig);

/* ---- image information (host or device memory) ---- */
ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfo(const void *data, uint32_t size, uint32_t *width,
                                                     uint32_t *height, int32_t *components);
ACL_FUNC_VISIBILITY aclError acldvppJpegGetImageInfoV2(const void *data, uint32_t size, uint32_t *width,
                                                       uint32_t *height, int32_t *components,
                                                       acldvppJpegFormat *format);
/** Output bytes acldvppJpegDecodeAsync needs: ALIGN_UP(w,128) * ALIGN_UP(h,16) * 3/2 for YUV420SP. */
ACL_FUNC_VISIBILITY aclError acldvppJpegPredictDecSize(const void *data, uint32_t dataSize,
                                                       acldvppPixelFormat outputPixelFormat, uint32_t *decSize);
/** An upper bound of the bytes acldvppJpegEncodeAsync writes for @p inputDesc. */
ACL_FUNC_VISIBILITY aclError acldvppJpegPredictEncSize(const acldvppPicDesc *inputDesc,
                                                       const acldvppJpegeConfig *config, uint32_t *size);
ACL_FUNC_VISIBILITY aclError acldvppPngGetImageInfo(const void *data, uint32_t dataSize, uint32_t *width,
                                                    uint32_t *height, int32_t *components);
/** Output bytes acldvppPngDecodeAsync needs: ALIGN_UP(w*3 (RGB) or w*4 (RGBA),128) * ALIGN_UP(h,16). */
ACL_FUNC_VISIBILITY aclError acldvppPngPredictDecSize(const void *data, uint32_t dataSize,
                                                      acldvppPixelFormat outputPixelFormat, uint32_t *decSize);

/* ---- codecs (stream-ordered) ---- */
/** Decode the JPEG at @p data (device memory) into @p outputDesc (YUV420SP NV12/NV21, or the source's own
 *  422SP/444SP). Sets the output description's width and height to the image's. */
ACL_FUNC_VISIBILITY aclError acldvppJpegDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                                                    acldvppPicDesc *outputDesc, aclrtStream stream);
/** Encode @p inputDesc into @p data; *size gives the buffer's bytes and receives the JPEG's bytes when the
 *  stream reaches the task (it must stay valid until then). */
ACL_FUNC_VISIBILITY aclError acldvppJpegEncodeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                    const void *data, uint32_t *size, acldvppJpegeConfig *config,
                                                    aclrtStream stream);
/** Decode the PNG at @p data (device memory) into @p outputDesc (RGB_888 or RGBA_8888). */
ACL_FUNC_VISIBILITY aclError acldvppPngDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                                                   acldvppPicDesc *outputDesc, aclrtStream stream);

/* ---- VPC (stream-ordered) ---- */
/** Scale the whole input picture to the output picture's width and height. */
ACL_FUNC_VISIBILITY aclError acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                   acldvppPicDesc *outputDesc, acldvppResizeConfig *resizeConfig,
                                                   aclrtStream stream);
/** Cut @p cropArea out of the input and scale it to the whole output picture. */
ACL_FUNC_VISIBILITY aclError acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                 acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                 aclrtStream stream);
ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                       acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                       acldvppResizeConfig *resizeConfig, aclrtStream stream);
/** Cut @p cropArea, scale it to @p pasteArea's size and write it there; the rest of the output is left as is. */
ACL_FUNC_VISIBILITY aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                         acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                                         acldvppRoiConfig *pasteArea, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc *channelDesc,
                                                            acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                                                            acldvppRoiConfig *cropArea, acldvppRoiConfig *pasteArea,
                                                            acldvppResizeConfig *resizeConfig, aclrtStream stream);
/** Input picture i yields roiNums[i] outputs, in order; @p size is the number of inputs. */
ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAsync(acldvppChannelDesc *channelDesc,
                                                      acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                                      uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                                      acldvppRoiConfig *cropAreas[], aclrtStream stream);
ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc *channelDesc,
                                                            acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                                            uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                                            acldvppRoiConfig *cropAreas[],
                                                            acldvppResizeConfig *resizeConfig, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc *channelDesc,
                                                              acldvppBatchPicDesc *srcBatchPicDescs,
                                                              uint32_t *roiNums, uint32_t size,
                                                              acldvppBatchPicDesc *dstBatchPicDescs,
                                                              acldvppRoiConfig *cropAreas[],
                                                              acldvppRoiConfig *pasteAreas[], aclrtStream stream);
/** Convert between formats at the same size (e.g. YUV420SP <-> RGB888); BT.601 full range (JFIF), the
 *  YCbCr that JPEGD produces. */
ACL_FUNC_VISIBILITY aclError acldvppVpcConvertColorAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                                         acldvppPicDesc *outputDesc, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACL_SIM_ACL_DVPP_H_
