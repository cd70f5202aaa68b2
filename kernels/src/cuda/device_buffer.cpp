#include "device_buffer.hpp"

#include <algorithm>
#include <utility>

#include "cuda_check.hpp"

namespace ridgeline {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  RIDGELINE_CUDA(cudaMalloc(&data_, std::max<std::size_t>(bytes, 1)));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}

CudaStream::CudaStream() {
  RIDGELINE_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}
CudaStream::~CudaStream() {
  if (stream_) cudaStreamDestroy(stream_);
}

EventTimer::EventTimer() {
  RIDGELINE_CUDA(cudaEventCreate(&start_));
  RIDGELINE_CUDA(cudaEventCreate(&stop_));
}
EventTimer::~EventTimer() {
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
}
void EventTimer::start(cudaStream_t stream) {
  RIDGELINE_CUDA(cudaEventRecord(start_, stream));
}
double EventTimer::stop(cudaStream_t stream) {
  RIDGELINE_CUDA(cudaEventRecord(stop_, stream));
  RIDGELINE_CUDA(cudaEventSynchronize(stop_));
  float ms = 0;
  RIDGELINE_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
  return 1e-3 * static_cast<double>(ms);
}

}  // namespace ridgeline
