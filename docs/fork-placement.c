// Where Linux starts a thread that a short-lived parent creates, without Node or llama.cpp.
// docs/upstream-node-llama-cpp.md, "Where the per-decode thread lands (Linux)", says why it matters.
//
// It mimics node-llama-cpp 3.21.1 decoding with 2 ggml threads: a pool of POOL threads (libuv's)
// takes one job at a time from a queue; each job is one "decode": it starts a fresh thread (ggml's
// disposable pool, no pool attached to the context) and both spin for WORK_MS of CPU time, then the
// job joins the thread. Between jobs the "main" thread spins GAP_MS (the JavaScript thread's work
// between decodes), and a separate process wakes every 3 ms for 0.4 ms (the load client). On two
// idle CPUs a job takes WORK_MS of wall time when its two threads run side by side; a job that takes
// over 1.25 x WORK_MS had them share one CPU for part of it.
//
//   cc -O1 -pthread docs/fork-placement.c -o /tmp/fork-placement
//   for p in 1 2 4; do /tmp/fork-placement $p; done     # POOL [JOBS=150] [WORK_MS=30] [GAP_MS=2]
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static volatile unsigned long sink;
static void spinCpu(double cpuMs) {
  const double start = ms(CLOCK_THREAD_CPUTIME_ID);
  while (ms(CLOCK_THREAD_CPUTIME_ID) - start < cpuMs)
    for (int i = 0; i < 20000; i++) sink += i;
}

static double workMs = 30;
static int queued = 0, done = 0, slow = 0;
static double wallSum = 0;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jobReady = PTHREAD_COND_INITIALIZER, jobDone = PTHREAD_COND_INITIALIZER;

static void* computeThread(void* unused) {
  spinCpu(workMs);
  return NULL;
}
static void* poolThread(void* unused) {
  for (;;) {
    pthread_mutex_lock(&mutex);
    while (queued == 0) pthread_cond_wait(&jobReady, &mutex);
    queued--;
    pthread_mutex_unlock(&mutex);
    const double start = ms(CLOCK_MONOTONIC);
    pthread_t helper;
    pthread_create(&helper, NULL, computeThread, NULL);
    spinCpu(workMs);
    pthread_join(helper, NULL);
    const double wall = ms(CLOCK_MONOTONIC) - start;
    pthread_mutex_lock(&mutex);
    wallSum += wall;
    if (wall > 1.25 * workMs) slow++;
    done++;
    pthread_cond_signal(&jobDone);
    pthread_mutex_unlock(&mutex);
  }
  return NULL;
}

int main(int argc, char** argv) {
  const int pool = argc > 1 ? atoi(argv[1]) : 2, jobs = argc > 2 ? atoi(argv[2]) : 150;
  if (argc > 3) workMs = atof(argv[3]);
  const double gapMs = argc > 4 ? atof(argv[4]) : 2;
  const pid_t client = fork();
  if (client == 0) {
    for (;;) {
      usleep(3000);
      const double start = ms(CLOCK_MONOTONIC);
      while (ms(CLOCK_MONOTONIC) - start < 0.4) sink++;
    }
  }
  usleep(500000);
  for (int i = 0; i < pool; i++) {
    pthread_t thread;
    pthread_create(&thread, NULL, poolThread, NULL);
  }
  for (int i = 0; i < jobs; i++) {
    spinCpu(gapMs);
    pthread_mutex_lock(&mutex);
    queued++;
    pthread_cond_signal(&jobReady);
    while (done <= i) pthread_cond_wait(&jobDone, &mutex);
    pthread_mutex_unlock(&mutex);
  }
  kill(client, SIGKILL);
  printf("pool %d: %d jobs of %.0f ms, mean wall %.1f ms, %d over 1.25x\n", pool, jobs, workMs,
         wallSum / jobs, slow);
  return 0;
}
