#include <coroutine>
#include <exception>

// A coroutine's body is rewritten by the compiler around its promise; it is
// skipped. The promise's members are ordinary functions.
struct Task {
    struct promise_type {
        Task get_return_object()
        {
            return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(int v) { value = v; }
        void unhandled_exception() { std::terminate(); }
        int value = 0;
    };
    std::coroutine_handle<promise_type> handle;
};

Task checksum(int seed)
{
    co_return seed * 31 + 7;
}

int run_checksum(int seed)
{
    Task t = checksum(seed);
    t.handle.resume();
    int v = t.handle.promise().value;
    t.handle.destroy();
    return v;
}
