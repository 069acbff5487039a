/* variants.c - returns under #if, compiled in other configurations: with
 * ANNOTATE_CC_OPTIONS="--variant '-DWIDE=1 -DUSE_X' --variant=-DHAVE_LUSTRE"
 * annotate plans all three and every return gets its END. */
int variant_pick(int v)
{
#if defined(USE_X) && WIDE == 1
    if (v > 10)
        return v * 2;
#endif
#ifdef HAVE_LUSTRE
    if (v < 0)
        return -v;
#endif
    return v + 1;
}
