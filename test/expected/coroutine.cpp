#include <coroutine>
#include <exception>
#include <dftracer/dftracer.h>

// A coroutine's body is rewritten by the compiler around its promise; it is
// skipped. The promise's members are ordinary functions.
struct Task {
    struct promise_type {
        Task get_return_object()
        {
            DFTRACER_CPP_FUNCTION();
            return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept {
            DFTRACER_CPP_FUNCTION(); return {}; }
        std::suspend_always final_suspend() noexcept {
            DFTRACER_CPP_FUNCTION(); return {}; }
        void return_value(int v) {
            DFTRACER_CPP_FUNCTION(); value = v; }
        void unhandled_exception() {
            DFTRACER_CPP_FUNCTION(); std::terminate(); }
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
    DFTRACER_CPP_FUNCTION();
    Task t = checksum(seed);
    t.handle.resume();
    int v = t.handle.promise().value;
    t.handle.destroy();
    return v;
}
