/* Loads a plugin with dlopen(RTLD_LOCAL), as Python and plugin hosts do,
 * and runs its h5_plugin_run(path): plugin_host PLUGIN PATH. Links no HDF5
 * and no runtime (preloaded by real_symbol.cmake). */
#include <dlfcn.h>
#include <stdio.h>

int main(int Argc, char **Argv) {
  void *Plugin;
  int (*Run)(const char *);
  int Rc;
  if (Argc != 3)
    return 64;
  Plugin = dlopen(Argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!Plugin) {
    fprintf(stderr, "plugin_host: %s\n", dlerror());
    return 65;
  }
  *(void **)&Run = dlsym(Plugin, "h5_plugin_run");
  if (!Run)
    return 66;
  Rc = Run(Argv[2]);
  printf("plugin: %d\n", Rc);
  return Rc;
}
