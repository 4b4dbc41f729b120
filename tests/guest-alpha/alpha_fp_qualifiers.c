/*
 * alpha_fp_qualifiers.c - Alpha differential test: every IEEE floating-point
 * instruction gcc and glibc use, in each of its qualifier forms, on values
 * where the forms differ (rounding modes, /S /U /I exception recording,
 * underflow to zero, NaN propagation, integer overflow of cvttq/cvtql),
 * printed as bit patterns with the FPCR status each one leaves.  Traps are
 * avoided: every case here is one the kernel completes without a signal.
 * Reference: qemu-alpha (dynamically linked build).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;

static double D(u64 b) { double d; memcpy(&d, &b, 8); return d; }
static u64 B(double d) { u64 b; memcpy(&b, &d, 8); return b; }
static float F(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

/* ---- the FPCR ---- */
#define FPCR_INIT 0x680e800000000000ull  /* Linux: traps off, round to nearest */
#define DYN(m)    ((u64)(m) << 58)       /* 0 chopped, 1 minus, 2 normal, 3 plus */

static u64 fpcr_get(void)
{
    double f;
    __asm__ volatile("excb\n\tmf_fpcr %0\n\texcb" : "=f"(f));
    return B(f);
}

static void fpcr_set(u64 v)
{
    __asm__ volatile("excb\n\tmt_fpcr %0\n\texcb" : : "f"(D(v)));
}

/* Clear the status bits, select a dynamic rounding mode. */
static void fresh(int dyn) { fpcr_set((FPCR_INIT & ~DYN(3)) | DYN(dyn)); }

static void show(const char *what, u64 result)
{
    u64 s = fpcr_get();
    printf("%-28s %016llx %s%s%s%s%s%s\n", what, (unsigned long long)result,
           s >> 52 & 1 ? " INV" : "", s >> 53 & 1 ? " DZE" : "", s >> 54 & 1 ? " OVF" : "",
           s >> 55 & 1 ? " UNF" : "", s >> 56 & 1 ? " INE" : "", s >> 57 & 1 ? " IOV" : "");
}

/* One instruction on registers: binary (Fa, Fb -> Fc) and unary (Fb -> Fc). */
#define OP2(insn, a, b) ({ double r_; \
    __asm__ volatile(insn " %1,%2,%0\n\ttrapb" : "=&f"(r_) : "f"(a), "f"(b)); r_; })
#define OP1(insn, b) ({ double r_; \
    __asm__ volatile(".arch ev6\n\t" insn " %1,%0\n\ttrapb" : "=&f"(r_) : "f"(b)); r_; })

#define RUN2(dyn, insn, a, b) do { fresh(dyn); double r = OP2(insn, a, b); \
    char n_[64]; snprintf(n_, sizeof n_, "%s d%d", insn, dyn); show(n_, B(r)); } while (0)
#define RUN1(dyn, insn, b) do { fresh(dyn); double r = OP1(insn, b); \
    char n_[64]; snprintf(n_, sizeof n_, "%s d%d", insn, dyn); show(n_, B(r)); } while (0)

/* S operands come from float variables: gcc loads them with lds. */
#define S2(dyn, insn, a, b) do { volatile float x_ = (a), y_ = (b); RUN2(dyn, insn, x_, y_); } while (0)

static const double one = 1.0, three = 3.0, ten = 10.0, mone = -1.0;

static void arithmetic(void)
{
    puts("-- T arithmetic, every rounding qualifier, dynamic modes");
    for (int dyn = 0; dyn < 4; dyn++) {
        RUN2(dyn, "divt/su", one, ten);   RUN2(dyn, "divt/sud", one, ten);
        RUN2(dyn, "divt/suc", one, ten);  RUN2(dyn, "divt/sum", one, ten);
        RUN2(dyn, "divt/sud", mone, ten); RUN2(dyn, "divt/sum", mone, three);
        RUN2(dyn, "divt/sui", one, three); RUN2(dyn, "divt/suid", mone, three);
        RUN2(dyn, "divt", one, three);    RUN2(dyn, "divt/c", one, three);
        RUN2(dyn, "divt/d", mone, three); RUN2(dyn, "divt/m", one, three);
        RUN2(dyn, "addt/sud", one, D(0x3c40000000000000ull));   /* 1 + 2^-59 */
        RUN2(dyn, "subt/sud", mone, D(0x3c40000000000000ull));
        RUN2(dyn, "mult/sud", D(0x3ff0000000000001ull), D(0x3ff0000000000001ull));
        RUN2(dyn, "addt/u", one, D(0x3c40000000000000ull));
        RUN2(dyn, "mult/sud", D(0x7fefffffffffffffull), D(0x4000000000000000ull));
        RUN2(dyn, "mult/sud", D(0xffefffffffffffffull), D(0x4000000000000000ull));
    }

    puts("-- T exceptions with /SU and /SUI (completed, recorded)");
    RUN2(2, "divt/su", one, D(0));
    RUN2(2, "divt/su", D(0), D(0));
    RUN2(2, "subt/su", D(0x7ff0000000000000ull), D(0x7ff0000000000000ull));
    RUN2(2, "mult/su", D(0x7ff0000000000000ull), D(0));
    RUN2(2, "mult/su", D(0x7fefffffffffffffull), ten);
    RUN2(2, "mult/sui", D(0x7fefffffffffffffull), ten);
    RUN2(2, "mult/su", D(0x0010000000000000ull), D(0x3fe0000000000001ull));  /* denormal */
    RUN2(2, "mult/sui", D(0x0010000000000000ull), D(0x3fe0000000000001ull));
    RUN2(2, "mult/su", D(0x0010000000000000ull), D(0x3fe0000000000000ull));  /* exact */
    RUN2(2, "mult/su", D(0x0000000000000001ull), D(0x3fe0000000000000ull));  /* to 0 */
    RUN2(2, "mult/sum", D(0x8000000000000001ull), D(0x3fe0000000000000ull));
    RUN2(2, "mult/su", D(0x3feffffffffffffeull), D(0x0010000000000001ull));  /* -> minnorm */
    RUN2(2, "mult/su", D(0x3fefffffffffffffull), D(0x0010000000000000ull));
    RUN2(2, "addt/su", D(0x0000000000000003ull), D(0x8000000000000001ull));  /* denormals */
    RUN2(2, "subt/su", one, one);
    RUN2(0, "subt/sud", one, one);
    RUN2(1, "subt/sud", one, one);
    RUN2(2, "divt/su", one, D(0x7ff0000000000000ull));
    RUN2(2, "divt/su", D(0x7ff0000000000000ull), D(0));

    puts("-- without /U: underflow to zero, no exception; without /S all are recorded");
    RUN2(2, "mult", D(0x0010000000000000ull), D(0x3fe0000000000001ull));
    RUN2(2, "mult/c", D(0x8010000000000000ull), D(0x3fe0000000000001ull));
    RUN2(2, "mult", D(0x3feffffffffffffeull), D(0x0010000000000001ull));  /* ftz before rounding */
    RUN2(2, "mult", D(0x3fefffffffffffffull), D(0x0010000000000000ull));
    RUN2(2, "mult/m", D(0x3fefffffffffffffull), D(0x0010000000000000ull));
    RUN2(2, "mult", D(0x0010000000000000ull), D(0x3ff0000000000000ull));
    RUN2(2, "addt", D(0x0018000000000000ull), D(0x8010000000000000ull));  /* exact denormal */
    RUN2(2, "addt", one, three);
    RUN2(2, "divt/c", ten, three);
    RUN2(2, "addt/c", one, D(0x3c40000000000000ull));

    puts("-- NaN operands (/SU)");
    RUN2(2, "addt/su", D(0x7ff8000000000001ull), one);
    RUN2(2, "addt/su", one, D(0x7ff8000000000002ull));
    RUN2(2, "addt/su", D(0x7ff0000000000001ull), one);
    RUN2(2, "mult/su", one, D(0xfff0000000000005ull));
    RUN2(2, "addt/su", D(0x7ff8000000000001ull), D(0x7ff8000000000002ull));
    RUN2(2, "addt/su", D(0x7ff8000000000002ull), D(0x7ff8000000000001ull));
    RUN2(2, "addt/su", D(0x7ff8000000000003ull), D(0xfff8000000000003ull));
    RUN2(2, "addt/su", D(0xfff8000000000003ull), D(0x7ff8000000000003ull));
    RUN2(2, "addt/su", D(0x7ff0000000000001ull), D(0x7ff8000000000000ull));
    RUN2(2, "addt/su", D(0x7ff8000000000000ull), D(0x7ff0000000000001ull));
    RUN2(2, "addt/su", D(0x7ff0000000000001ull), D(0x7ff0000000000002ull));
    RUN2(2, "divt/su", D(0xfff8000000000000ull), D(0));
}

static void single(void)
{
    puts("-- S arithmetic");
    for (int dyn = 0; dyn < 4; dyn++) {
        S2(dyn, "divs/sud", 1.0f, 3.0f);
        S2(dyn, "divs/sud", -1.0f, 3.0f);
        S2(dyn, "adds/sud", 1.0f, 1e-8f);
        S2(dyn, "muls/sud", 3e38f, 10.0f);
        S2(dyn, "divs/suc", 2.0f, 3.0f);
        S2(dyn, "divs/sum", -2.0f, 3.0f);
    }
    S2(2, "muls/su", 1e-30f, 1e-10f);         /* float denormal */
    S2(2, "muls/sui", 1e-30f, 1e-10f);
    S2(2, "muls", 1e-30f, 1e-10f);            /* to zero */
    S2(2, "muls/su", 1e-30f, 1e-30f);
    S2(2, "divs/su", 1.0f, 0.0f);
    S2(2, "subs/su", 0.0f, 0.0f);
    S2(2, "adds/su", F(0x7fc00001), 1.0f);
    S2(2, "adds/su", F(0x7f800001), 1.0f);
    S2(2, "adds/su", F(0x7fc00001), F(0x7fc00002));
    S2(2, "divs/su", 0.0f, 0.0f);
    S2(2, "adds", 1.0f, 3.0f);
    S2(2, "divs", 1.0f, 3.0f);
    S2(2, "adds/su", F(0x00000003), F(0x00000005));  /* denormal operands */
    S2(2, "muls/su", F(0x00400000), 4.0f);
}

static void sqrts(void)
{
    puts("-- square roots");
    for (int dyn = 0; dyn < 4; dyn++) {
        RUN1(dyn, "sqrtt/sud", 2.0);
        RUN1(dyn, "sqrtt/suc", 3.0);
        volatile float f = 2.0f;
        RUN1(dyn, "sqrts/sud", f);
    }
    RUN1(2, "sqrtt/su", -1.0);
    RUN1(2, "sqrtt/su", D(0x8000000000000000ull));
    RUN1(2, "sqrtt/su", D(0x7ff0000000000000ull));
    RUN1(2, "sqrtt/su", D(0x0000000000000001ull));
    RUN1(2, "sqrtt/su", D(0x7ff0000000000001ull));
    RUN1(2, "sqrtt/sui", 4.0);
    RUN1(2, "sqrtt/sui", 2.0);
    RUN1(2, "sqrtt", 2.0);
    volatile float m = -4.0f;
    RUN1(2, "sqrts/su", m);
}

static void compares(void)
{
    static const u64 v[][2] = {
        { 0x3ff0000000000000ull, 0x4000000000000000ull }, { 0x4000000000000000ull, 0x3ff0000000000000ull },
        { 0x3ff0000000000000ull, 0x3ff0000000000000ull }, { 0x8000000000000000ull, 0x0000000000000000ull },
        { 0x7ff0000000000000ull, 0x7ff0000000000000ull }, { 0xfff0000000000000ull, 0x3ff0000000000000ull },
        { 0x7ff8000000000000ull, 0x3ff0000000000000ull }, { 0x3ff0000000000000ull, 0x7ff0000000000001ull },
        { 0x0000000000000001ull, 0x0000000000000002ull },
    };
    puts("-- compares (/SU) and plain forms on finite and infinite operands");
    for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
        double a = D(v[k][0]), b = D(v[k][1]);
        printf("  %016llx vs %016llx\n", (unsigned long long)v[k][0], (unsigned long long)v[k][1]);
        RUN2(2, "cmpteq/su", a, b); RUN2(2, "cmptlt/su", a, b);
        RUN2(2, "cmptle/su", a, b); RUN2(2, "cmptun/su", a, b);
        if (k < 6) { RUN2(2, "cmpteq", a, b); RUN2(2, "cmptle", a, b); }
    }
}

static void conversions(void)
{
    static const u64 tq[] = {
        0x4004000000000000ull /* 2.5 */, 0x400c000000000000ull /* 3.5 */, 0xc004000000000000ull,
        0x4005a3d70a3d70a4ull /* 2.705 */, 0xc005a3d70a3d70a4ull, 0x3fe0000000000000ull,
        0x3fe0000000000001ull, 0x4630000000000000ull /* 2^100 */, 0x43e0000000000000ull /* 2^63 */,
        0xc3e0000000000000ull /* -2^63 */, 0x43dfffffffffffffull, 0xc6293e5939a08ceaull /* -1e30 */,
        0x0000000000000001ull, 0x8000000000000001ull, 0x7ff8000000000000ull, 0xfff0000000000000ull,
    };
    puts("-- cvttq");
    for (unsigned k = 0; k < sizeof tq / sizeof tq[0]; k++) {
        double x = D(tq[k]);
        printf("  %016llx\n", (unsigned long long)tq[k]);
        for (int dyn = 0; dyn < 4; dyn += 3) {
            RUN1(dyn, "cvttq/svc", x); RUN1(dyn, "cvttq/sv", x); RUN1(dyn, "cvttq/svm", x);
            RUN1(dyn, "cvttq/svd", x); RUN1(dyn, "cvttq/svic", x); RUN1(dyn, "cvttq/svi", x);
        }
        if (k < 12) {
            RUN1(2, "cvttq/c", x); RUN1(2, "cvttq", x); RUN1(2, "cvttq/d", x); RUN1(2, "cvttq/m", x);
        }
    }

    static const u64 qs[] = {
        5, (u64)-5, (1ull << 53) + 1, (u64)-((1ll << 53) + 1), (1ull << 53) + 3, (1ull << 24) + 1,
        (u64)-((1ll << 24) + 1), 0x7fffffffffffffffull, 0x8000000000000000ull, 0x123456789abcdefull,
    };
    puts("-- cvtqt / cvtqs");
    for (unsigned k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        double x = D(qs[k]);
        for (int dyn = 0; dyn < 4; dyn++) {
            RUN1(dyn, "cvtqt", x); RUN1(dyn, "cvtqt/c", x); RUN1(dyn, "cvtqt/m", x);
            RUN1(dyn, "cvtqt/d", x); RUN1(dyn, "cvtqt/sui", x); RUN1(dyn, "cvtqt/suid", x);
            RUN1(dyn, "cvtqs", x); RUN1(dyn, "cvtqs/d", x); RUN1(dyn, "cvtqs/suic", x);
        }
    }

    static const u64 ts[] = {
        0x3fd5555555555555ull, 0xbfd5555555555555ull, 0x47efffffffffffffull /* > FLT_MAX */,
        0x36a0000000000000ull /* 2^-149 */, 0x3690000000000000ull /* 2^-150 */,
        0x3698000000000000ull, 0x380fffffffffffffull /* just below 2^-126 */, 0x380fffffe0000000ull,
        0x7ff0000000000001ull, 0xfff8000000000123ull, 0x7ff0000000000000ull, 0x8000000000000000ull,
    };
    puts("-- cvtts");
    for (unsigned k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        double x = D(ts[k]);
        for (int dyn = 0; dyn < 4; dyn++) {
            RUN1(dyn, "cvtts/sud", x); RUN1(dyn, "cvtts/suc", x); RUN1(dyn, "cvtts/sui", x);
            if (k < 7 && k != 2) { RUN1(dyn, "cvtts", x); RUN1(dyn, "cvtts/d", x); }
        }
    }

    puts("-- cvtst");
    static const uint32_t st[] = { 0x3f800000, 0x00000001, 0x807fffff, 0x7f800000, 0x7fc00001,
                                   0x7f800001, 0xff800000, 0x00800000 };
    for (unsigned k = 0; k < sizeof st / sizeof st[0]; k++) {
        volatile float f = F(st[k]);
        RUN1(2, "cvtst/s", f);
        if (k == 0 || k == 7) RUN1(2, "cvtst", f);
    }

    puts("-- cvtql / cvtlq");
    static const u64 ql[] = { 5, (u64)-5, 0x7fffffff, 0x80000000ull, (u64)-0x80000000ll,
                              0x123456789ull, 0xffffffff00000000ull };
    for (unsigned k = 0; k < sizeof ql / sizeof ql[0]; k++) {
        double x = D(ql[k]);
        RUN1(2, "cvtql", x); RUN1(2, "cvtql/sv", x);
        if (ql[k] + 0x80000000ull < 0x100000000ull) RUN1(2, "cvtql/v", x);
        fresh(2);
        double l = OP1("cvtql", x);
        show("cvtlq(cvtql)", B(OP1("cvtlq", l)));
    }
}

/* fcmovxx test,b into a register holding c. */
#define FCMOV(insn, test, b, c) do { double t_ = (c); \
    __asm__ volatile(insn " %1,%2,%0" : "+f"(t_) : "f"(D(test)), "f"(b)); \
    printf("  %-8s %016llx\n", insn, (unsigned long long)B(t_)); } while (0)

static void moves(void)
{
    static const u64 v[] = { 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x0000000000000000ull,
                             0x8000000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull,
                             0x0000000000000001ull };
    puts("-- cpys family, fcmov, branches");
    for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
        double a = D(v[k]), b = D(0x4008000000000000ull), c = D(0x4010000000000000ull);
        printf("  %016llx\n", (unsigned long long)v[k]);
        RUN2(2, "cpys", a, b); RUN2(2, "cpysn", a, b); RUN2(2, "cpyse", a, b);
        FCMOV("fcmoveq", v[k], b, c); FCMOV("fcmovne", v[k], b, c);
        FCMOV("fcmovlt", v[k], b, c); FCMOV("fcmovge", v[k], b, c);
        FCMOV("fcmovle", v[k], b, c); FCMOV("fcmovgt", v[k], b, c);
        long br = 0;
        double x = D(v[k]);
        __asm__ volatile(
            "mov 0,%0\n\t"
            "fbeq %1,1f\n\tbr 2f\n1:\tbis %0,1,%0\n2:\t"
            "fbne %1,1f\n\tbr 2f\n1:\tbis %0,2,%0\n2:\t"
            "fblt %1,1f\n\tbr 2f\n1:\tbis %0,4,%0\n2:\t"
            "fbge %1,1f\n\tbr 2f\n1:\tbis %0,8,%0\n2:\t"
            "fble %1,1f\n\tbr 2f\n1:\tbis %0,16,%0\n2:\t"
            "fbgt %1,1f\n\tbr 2f\n1:\tbis %0,32,%0\n2:"
            : "=&r"(br) : "f"(x));
        printf("  branches taken mask %02lx\n", br);
    }
}

static void fpcr(void)
{
    puts("-- FPCR");
    fpcr_set(0x0123456789abcdefull);
    printf("  mt 0123456789abcdef -> %016llx\n", (unsigned long long)fpcr_get());
    fresh(2);
    printf("  fresh -> %016llx\n", (unsigned long long)fpcr_get());
    /* status bits are sticky across instructions until rewritten */
    volatile double z = 0.0;
    double r = OP2("divt/su", one, z);
    r = OP2("addt/su", r, one);
    r = OP2("mult/sui", one, three);
    show("sticky DZE then INE", B(r));
    /* denormal operands read as zero with FPCR.DNZ */
    fpcr_set(FPCR_INIT | (1ull << 48));
    r = OP2("addt/su", D(0x0000000000000005ull), D(0));
    show("DNZ: denormal+0", B(r));
    r = OP2("mult/su", D(0x0008000000000000ull), D(0x4330000000000000ull));
    show("DNZ: denormal*2^52", B(r));
    r = OP2("cmpteq/su", D(0x0000000000000005ull), D(0));
    show("DNZ: cmpteq denormal,0", B(r));
    r = OP1("cvttq/svm", D(0x8000000000000005ull));
    show("DNZ: cvttq/svm -denormal", B(r));
    /* UNDZ with UNFD: /U results underflow to zero */
    fpcr_set(FPCR_INIT | (1ull << 60));
    r = OP2("mult/su", D(0x0010000000000000ull), D(0x3fe0000000000001ull));
    show("UNDZ: tiny product", B(r));
    fresh(2);
}

int main(void)
{
    arithmetic();
    single();
    sqrts();
    compares();
    conversions();
    moves();
    fpcr();
    fresh(2);
    return 0;
}
