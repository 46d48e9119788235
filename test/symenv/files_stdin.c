/* Symbolic files and stdin read every way the model offers (--sym-files 1 3 --sym-stdin 3):
 * fopen/fread/fseek/ftell/rewind/fgetc/fclose and stat of file A, open/read/lseek/close and
 * fstat of it, read(0, …) and fgets on stdin. The assertions hold on every path (stat's size is
 * what the reads found); the bug planted is a file whose contents start with "ok", which aborts. */
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  char buf[8];
  FILE *f = fopen("A", "r");
  assert(f != NULL);
  size_t n = fread(buf, 1, sizeof buf, f);
  assert(fseek(f, 0, SEEK_END) == 0 && ftell(f) == (long)n);
  rewind(f);
  assert(n == 0 || fgetc(f) == (unsigned char)buf[0]);
  fclose(f);
  struct stat st;
  assert(stat("A", &st) == 0 && (size_t)st.st_size == n);
  assert(fopen("B", "r") == NULL);
  int fd = open("A", O_RDONLY);
  assert(fd >= 0);
  char again[8];
  ssize_t m = read(fd, again, sizeof again);
  assert(m == (ssize_t)n && fstat(fd, &st) == 0 && st.st_size == m);
  assert(lseek(fd, -1, SEEK_CUR) == m - 1 || m == 0);
  close(fd);
  if (n >= 2 && buf[0] == 'o' && buf[1] == 'k') abort(); /* the planted bug */
  char line[8];
  ssize_t k = read(0, line, 1);
  if (k == 1 && line[0] == 'x' && fgets(line, sizeof line, stdin) != NULL)
    printf("after x: %s\n", line);
  return 0;
}
