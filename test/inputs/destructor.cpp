#include <cstdio>

// Closes its stream when it goes out of scope.
class LogFile {
public:
    explicit LogFile(std::FILE *fp) : fp_(fp) {}
    ~LogFile()
    {
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

Scratch::~Scratch() { delete[] buf; }

class Backend {
public:
    virtual ~Backend() {}
};
