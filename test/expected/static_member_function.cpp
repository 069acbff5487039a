// Hands out ids for open files, process-wide.
#include <dftracer/dftracer.h>
class Registry {
public:
    static Registry &instance()
    {
        DFTRACER_CPP_FUNCTION();
        static Registry registry;
        return registry;
    }

    static int next_id();

    int opened = 0;

private:
    static int last_id_;
};

int Registry::last_id_ = 0;

int Registry::next_id() {
    DFTRACER_CPP_FUNCTION(); return ++last_id_; }
