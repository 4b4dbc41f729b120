/* main.c - driver of the raytrace workload (eon-like): builds the scene for
 * the chosen size, verifies the BVH against brute force, renders the image
 * in flat, Whitted and ambient-occlusion modes, and checks checksums of the
 * 8-bit quantised images against known values. */
#include "rt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct size_class {
    const char *name;
    int detail;
    int check_rays;
    render_opts ro;
    uint64_t expect[NMODES];
} size_class;

static const size_class sizes[] = {
    {"test", 1, 60, {32, 24, 6, 3},
     {0x4c75b597ab841dcfULL, 0xb6806ae212012279ULL, 0xa66288639faf66f2ULL}},
    {"train", 2, 200, {104, 78, 8, 4},
     {0x76ad6a4db63aaa9dULL, 0x4c92f9043262a212ULL, 0xbd8d1949bec7c9a6ULL}},
    {"ref", 4, 400, {256, 192, 12, 5},
     {0xe24d2db34b6fa8eaULL, 0x3cd7b483b9623005ULL, 0xff32c03793b5079dULL}},
};

static uint64_t image_hash(const uint8_t *img, size_t n, uint64_t *sum)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    *sum = 0;
    for (size_t i = 0; i < n; i++) {
        h ^= img[i];
        h *= 0x100000001b3ULL;
        *sum += img[i];
    }
    return h;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    const size_class *sc = NULL;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            sc = &sizes[i];
    if (!sc) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    uint64_t seed = 0x7261797472616365ULL;
    scene *s = build_scene(sc->detail, &seed);
    int bad = scene_selfcheck(s, sc->check_rays, &seed);
    printf("raytrace %s: %d primitives, %d bvh nodes, %dx%d\n", sc->name, s->nprims,
           bvh_node_count(), sc->ro.width, sc->ro.height);
    if (bad) {
        fprintf(stderr, "raytrace: BVH disagrees with brute force on %d rays\n", bad);
        return 1;
    }
    size_t n = (size_t)sc->ro.width * sc->ro.height * 3;
    uint8_t *img = malloc(n);
    uint64_t rays = 0, total = 0;
    int fails = 0;
    for (int m = 0; m < NMODES; m++) {
        uint64_t sum;
        render(s, m, &sc->ro, img, &rays);
        uint64_t h = image_hash(img, n, &sum);
        printf("  %-8s checksum=%016llx mean=%.3f\n", mode_name(m), (unsigned long long)h,
               (double)sum / (double)n);
        if (sc->expect[m] && sc->expect[m] != h) {
            fprintf(stderr, "raytrace: %s image checksum mismatch (expected %016llx)\n",
                    mode_name(m), (unsigned long long)sc->expect[m]);
            fails++;
        }
        total = total * 31 + h;
    }
    printf("raytrace %s: rays=%llu checksum=%016llx\n", sc->name, (unsigned long long)rays,
           (unsigned long long)total);
    free(img);
    return fails ? 1 : 0;
}
