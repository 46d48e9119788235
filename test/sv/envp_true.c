// VERDICT: true
/* main's envp is empty and non-NULL. */
void reach_error(void);
int main(int argc, char **argv, char **envp) {
  (void)argc, (void)argv;
  if (envp == 0 || envp[0] != 0) reach_error();
  return 0;
}
