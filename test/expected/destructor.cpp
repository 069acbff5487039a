#include <cstdio>
#include <dftracer/dftracer.h>

// Closes its stream when it goes out of scope.
class LogFile {
public:
    explicit LogFile(std::FILE *fp) : fp_(fp) {
        DFTRACER_CPP_FUNCTION();}
    ~LogFile()
    {
        DFTRACER_CPP_FUNCTION();
        if (fp_)
            std::fclose(fp_);
    }

private:
    std::FILE *fp_;
};

struct Scratch {
    ~Scratch();
    char *buf = nullptr;
};

Scratch::~Scratch() {
    DFTRACER_CPP_FUNCTION(); delete[] buf; }

class Backend {
public:
    virtual ~Backend() {
        DFTRACER_CPP_FUNCTION();}
};
