// Calls `predict` of examples/mlp.tg on two images and prints the class
// probabilities: what both hosts do once they have a tcc::Runtime.
#ifndef TCC_EMBED_PREDICT_H
#define TCC_EMBED_PREDICT_H

#include <tcc/runtime/tcc_runtime.h>

#include <cstdio>
#include <vector>

inline int predictAndPrint(tcc::Runtime &runtime) {
  tcc::Result<tcc::Function *> predict = runtime.function("predict");
  if (!predict.ok()) {
    std::fprintf(stderr, "%s\n", predict.status().message().c_str());
    return 1;
  }
  std::vector<float> pixels(2 * 784);
  for (size_t i = 0; i < pixels.size(); ++i)
    pixels[i] = float(i % 17) / 16.0f;
  tcc::Result<tcc::Array> x = tcc::Array::fromVector(pixels, {2, 784});
  if (!x.ok())
    return 1;
  tcc::Result<std::vector<tcc::Array>> outputs =
      predict.value()->call({x.value()});
  if (!outputs.ok()) {
    std::fprintf(stderr, "%s\n", outputs.status().message().c_str());
    return 1;
  }
  const tcc::Array &probs = outputs.value()[0]; // f32[2, 10]
  for (int64_t image = 0; image < probs.shape()[0]; ++image) {
    std::printf("image %lld:", static_cast<long long>(image));
    for (int64_t label = 0; label < probs.shape()[1]; ++label)
      std::printf(" %.4f", probs.at<float>({image, label}).value());
    std::printf("\n");
  }
  return 0;
}

#endif // TCC_EMBED_PREDICT_H
