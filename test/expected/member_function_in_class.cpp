#include <cstddef>
#include <string>
#include <dftracer/dftracer.h>

// A write buffer whose methods are all defined inside the class.
class WriteBuffer {
public:
    std::size_t size() const {
        DFTRACER_CPP_FUNCTION(); return used_; }

    bool append(const std::string &bytes)
    {
        DFTRACER_CPP_FUNCTION();
        if (used_ + bytes.size() > sizeof(data_))
            return false;
        for (char c : bytes)
            data_[used_++] = c;
        return true;
    }

    virtual void reset() {
        DFTRACER_CPP_FUNCTION();
        used_ = 0;
    }

    virtual ~WriteBuffer() {
        DFTRACER_CPP_FUNCTION();}

protected:
    char data_[4096];
    std::size_t used_ = 0;
};

class ZeroingBuffer final : public WriteBuffer {
public:
    void reset() override
    {
        DFTRACER_CPP_FUNCTION();
        for (std::size_t i = 0; i < used_; ++i)
            data_[i] = 0;
        WriteBuffer::reset();
    }
};
