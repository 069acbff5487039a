/*===- vfork.c - vfork: the real one while tracing is off -----------------===*
 *
 * A vfork child shares its parent's memory until it execs or exits. With
 * tracing on, its intercepted calls (close and dup2 before exec, typically,
 * then exec, which finishes the trace) would act on the parent's buffers
 * and descriptor table, so vfork is a fork, as ThreadSanitizer makes it:
 * the child gets its own copy and its own trace, which POSIX allows (a
 * vfork child may not touch memory anyway).
 *
 * With tracing off (not enabled, not started yet, finished), or while this
 * thread is inside the runtime, nothing the child calls is traced, and
 * vfork is the real one: memory shared and the parent suspended until the
 * child execs or exits, as programs that rely on it expect, and no copy of
 * the page tables, which costs a large process (an MPI rank) far more than
 * the exec it is for.
 *
 * A C function cannot be that vfork: the child would return from it, its
 * next calls would overwrite the wrapper's frame, and the parent would then
 * return through the overwritten frame. So vfork is a few instructions of
 * assembly that call dftracer_vfork_target_ and jump (not call) to the
 * function it returns, the real vfork or fork, which then runs with the
 * caller's stack and return address as if called directly. x86-64 (with
 * endbr64 for indirect-branch tracking) and AArch64 (with `bti c`);
 * elsewhere vfork is a fork, tracing on or off.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "io_core.h"
#include "io_real.h"

#include <unistd.h>

/* Referred to from io_core.c: a link against the static archive takes this
 * object along, so that the shared libraries' vfork binds to it too. */
const char dftracer_vfork_object_[] DFT_HIDDEN = "vfork";

#if (defined(__x86_64__) && !defined(__ILP32__)) || defined(__aarch64__)

/* Where vfork jumps: the real vfork while nothing the child calls can be
 * traced, else fork. */
void *dftracer_vfork_target_(void) DFT_HIDDEN;
void *dftracer_vfork_target_(void) {
  if (dftracer_io_tracking())
    return (void *)fork;
  return (void *)DFT_REAL(vfork);
}

#if defined(__x86_64__)
/* The stack is 16-byte aligned for the call, and back as the caller left
 * it for the jump. */
__asm__(".pushsection .text\n"
        ".globl vfork\n"
        ".type vfork, @function\n"
        ".p2align 4\n"
        "vfork:\n"
        ".cfi_startproc\n"
        "  endbr64\n"
        "  subq $8, %rsp\n"
        ".cfi_adjust_cfa_offset 8\n"
        "  call dftracer_vfork_target_\n"
        "  addq $8, %rsp\n"
        ".cfi_adjust_cfa_offset -8\n"
        "  jmp *%rax\n"
        ".cfi_endproc\n"
        ".size vfork, .-vfork\n"
        ".popsection\n");
#else
/* The frame record holds the link register across the call; the jump goes
 * through x16, which a `bti c` landing pad (glibc's vfork and fork) accepts. */
__asm__(".pushsection .text\n"
        ".globl vfork\n"
        ".type vfork, %function\n"
        ".p2align 2\n"
        "vfork:\n"
        ".cfi_startproc\n"
        "  hint #34\n" /* bti c */
        "  stp x29, x30, [sp, #-16]!\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset 29, -16\n"
        ".cfi_offset 30, -8\n"
        "  mov x29, sp\n"
        "  bl dftracer_vfork_target_\n"
        "  ldp x29, x30, [sp], #16\n"
        ".cfi_restore 30\n"
        ".cfi_restore 29\n"
        ".cfi_def_cfa_offset 0\n"
        "  mov x16, x0\n"
        "  br x16\n"
        ".cfi_endproc\n"
        ".size vfork, .-vfork\n"
        ".popsection\n");
#endif

#else
#pragma GCC visibility push(default)
pid_t vfork(void) { return fork(); }
#pragma GCC visibility pop
#endif
