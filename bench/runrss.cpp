// bench_runrss: runs `bash -o pipefail -c CMD` and reports its peak RSS.
//
// Python's fork leaves the interpreter's pages in a child's ru_maxrss, so the
// driver starts commands through this small launcher instead. Prints



// Usage: BENCH_RUNRSS_OUT=FILE bench_runrss CMD
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const char* out = std::getenv("BENCH_RUNRSS_OUT");
  if (argc != 2 || !out) {
    std::fprintf(stderr, "usage: BENCH_RUNRSS_OUT=FILE bench_runrss CMD\n");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) return 125;
  if (pid == 0) {
    execlp("bash", "bash", "-o", "pipefail", "-c", argv[1], static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  if (wait4(pid, &status, 0, &ru) < 0) return 125;
  if (FILE* f = std::fopen(out, "w")) {
    std::fprintf(f, "%ld %.6f %.6f\n", ru.ru_maxrss, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
                 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6);
    std::fclose(f);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
