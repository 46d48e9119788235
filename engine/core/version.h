/* version — symq's version string and the versions of the libraries it was built with. */
#ifndef SYMQ_VERSION_H
#define SYMQ_VERSION_H
#include <stdio.h>
#define SYMQ_VERSION "0.1.0"
void symq_print_version(FILE *f);
#endif
