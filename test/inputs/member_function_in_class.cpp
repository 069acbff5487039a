#include <cstddef>
#include <string>

// A write buffer whose methods are all defined inside the class.
class WriteBuffer {
public:
    std::size_t size() const { return used_; }

    bool append(const std::string &bytes)
    {
        if (used_ + bytes.size() > sizeof(data_))
            return false;
        for (char c : bytes)
            data_[used_++] = c;
        return true;
    }

    virtual void reset() {
        used_ = 0;
    }

    virtual ~WriteBuffer() {}

protected:
    char data_[4096];
    std::size_t used_ = 0;
};

class ZeroingBuffer final : public WriteBuffer {
public:
    void reset() override
    {
        for (std::size_t i = 0; i < used_; ++i)
            data_[i] = 0;
        WriteBuffer::reset();
    }
};
