/* Hostile (issue 32): keeps working from a second thread after the reply. solution() launches nothing: it hands its
   arguments to a thread of its own and returns, so the stub's events and synchronize see an idle device and the
   reply goes at once; about 50 us later the thread launches the kernel on a non-blocking stream of its own (its cpu
   use after the reply stays under the cuda workers' 1 ms allowance). Expected: rejected (the probe's sum, right after
   the reply, is of outputs that are not finished) or incorrect; never accepted faster than the honest kernel. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static const float* px;
static float* py;
static int64_t pn;
static int pending, started;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static void* worker(void*) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (;;) {
    pthread_mutex_lock(&mu);
    while (!pending) pthread_cond_wait(&cv, &mu);
    pending = 0;
    const float* x = px;
    float* y = py;
    int64_t n = pn;
    pthread_mutex_unlock(&mu);
    double t0 = now_us();
    while (now_us() - t0 < 50) {
    }
    relu<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(x, y, n);
    cudaStreamSynchronize(s);
  }
  return 0;
}

extern "C" void solution(const float* x, float* y, int64_t n) {
  pthread_mutex_lock(&mu);
  if (!started) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    started = 1;
  }
  px = x;
  py = y;
  pn = n;
  pending = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
}
