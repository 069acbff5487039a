/* dftracer/dftracer.h - a test stand-in for upstream DFTracer v1's C API.
 *
 * Test only (integration.upstream_stub, docs/integration.md): NOT upstream,
 * and not this project's runtime. It declares what upstream v1.x's public
 * header gives C code -- the same macro names, arities and expansions in
 * kind (each macro ends in its own `;`, START declares `data_fn`, METADATA is
 * a braced block, no cleanup attribute) and the same C function names -- so
 * that an annotated source which compiles here with -Wall -Werror uses
 * nothing upstream does not have. Written from upstream's documented API
 * (LLNL/dftracer include/dftracer/dftracer.h), not copied.
 */
#ifndef DFTRACER_DFTRACER_H
#define DFTRACER_DFTRACER_H

#define DF_DATA_EVENT 0
#define DF_METADATA_EVENT 1

typedef const char *ConstEventNameType;

#ifdef __cplusplus
extern "C" {
#endif

/* A region: opaque to callers, as upstream's. */
struct DFTracerData {
  void *profiler;
};

__attribute__((unused)) static ConstEventNameType C_LOG_CATEGORY = "C_APP";

void initialize_main(const char *log_file, const char *data_dirs,
                     int *process_id);
void initialize_no_bind(const char *log_file, const char *data_dirs,
                        int *process_id);
void finalize(void);
struct DFTracerData *initialize_region(ConstEventNameType name,
                                       ConstEventNameType cat, int event_type);
void finalize_region(struct DFTracerData *data);
void update_metadata_int(struct DFTracerData *data, const char *key, int value);
void update_metadata_string(struct DFTracerData *data, const char *key,
                            const char *value);

#ifdef __cplusplus
}
#endif

#define DFTRACER_C_INIT(log_file, data_dirs, process_id)                       \
  initialize_main(log_file, data_dirs, process_id);
#define DFTRACER_C_INIT_NO_BIND(log_file, data_dirs, process_id)               \
  initialize_no_bind(log_file, data_dirs, process_id);
#define DFTRACER_C_FINI() finalize()

#define DFTRACER_C_FUNCTION_START()                                            \
  struct DFTracerData *data_fn =                                               \
      initialize_region(__func__, C_LOG_CATEGORY, DF_DATA_EVENT);
#define DFTRACER_C_FUNCTION_END() finalize_region(data_fn);

#define DFTRACER_C_REGION_START(name)                                          \
  struct DFTracerData *data_##name =                                           \
      initialize_region(#name, C_LOG_CATEGORY, DF_DATA_EVENT);
#define DFTRACER_C_REGION_END(name) finalize_region(data_##name);

#define DFTRACER_C_METADATA(name, key, val)                                    \
  {                                                                            \
    struct DFTracerData *data_##name =                                         \
        initialize_region(key, val, DF_METADATA_EVENT);                        \
    finalize_region(data_##name);                                              \
  }

#define DFTRACER_C_FUNCTION_UPDATE_INT(key, val)                               \
  update_metadata_int(data_fn, key, val);
#define DFTRACER_C_FUNCTION_UPDATE_STR(key, val)                               \
  update_metadata_string(data_fn, key, val);
#define DFTRACER_C_REGION_UPDATE_INT(name, key, val)                           \
  update_metadata_int(data_##name, key, val);
#define DFTRACER_C_REGION_UPDATE_STR(name, key, val)                           \
  update_metadata_string(data_##name, key, val);

#endif /* DFTRACER_DFTRACER_H */
