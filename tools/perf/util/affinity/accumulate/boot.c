// SPDX-License-Identifier: GPL-2.0
/* A bootstrap over blocks of time (see boot.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include "boot.h"

/* The weight of each group in each replicate: a multinomial draw */
static u8 fa_boot_weights[FA_BOOT_REPS][FA_BOOT_GROUPS];
static pthread_once_t fa_boot_once = PTHREAD_ONCE_INIT;

/* A fixed seed: the same recording gives the same intervals */
static void fa_boot__draw(void)
{
	u64 x = 0x2545f4914f6cdd1dULL;

	for (int r = 0; r < FA_BOOT_REPS; r++) {
		for (int k = 0; k < FA_BOOT_GROUPS; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			fa_boot_weights[r][(x >> 32) % FA_BOOT_GROUPS]++;
		}
	}
}

double fa_boot_sum__total(const struct fa_boot_sum *s)
{
	double sum = 0;

	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		sum += s->g[g];
	return sum;
}

/* Groups with something in them: too few, and the intervals say little */
int fa_boot_sum__nr_groups(const struct fa_boot_sum *s)
{
	int n = 0;

	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		n += s->g[g] != 0;
	return n;
}

/* @s in replicate @rep */
double fa_boot_sum__rep(const struct fa_boot_sum *s, int rep)
{
	double sum = 0;

	pthread_once(&fa_boot_once, fa_boot__draw);
	for (int g = 0; g < FA_BOOT_GROUPS; g++)
		sum += fa_boot_weights[rep][g] * s->g[g];
	return sum;
}

static int fa_double__cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The central FA_BOOT_LEVEL of the @nr replicates @reps, around @est */
void fa_interval__from(struct fa_interval *ci, double est, double *reps, int nr)
{
	int tail = (1 - FA_BOOT_LEVEL) / 2 * (nr - 1);

	ci->est = ci->lo = ci->hi = est;
	if (nr < 2)
		return;
	qsort(reps, nr, sizeof(*reps), fa_double__cmp);
	ci->lo = min(est, reps[tail]);
	ci->hi = max(est, reps[nr - 1 - tail]);
}

/* @num / @den, with its interval */
void fa_boot__ratio(const struct fa_boot_sum *num, const struct fa_boot_sum *den,
		    struct fa_interval *ci)
{
	double d = fa_boot_sum__total(den), reps[FA_BOOT_REPS];
	int nr = 0;

	for (int r = 0; r < FA_BOOT_REPS; r++) {
		double dr = fa_boot_sum__rep(den, r);

		if (dr > 0)
			reps[nr++] = fa_boot_sum__rep(num, r) / dr;
	}
	fa_interval__from(ci, d > 0 ? fa_boot_sum__total(num) / d : 0, reps, nr);
}

/* The relative change from @a to @b (b / a - 1), with its interval */
void fa_boot__change(const struct fa_boot_sum *a, const struct fa_boot_sum *b,
		     struct fa_interval *ci)
{
	fa_boot__ratio(b, a, ci);
	ci->est -= 1;
	ci->lo -= 1;
	ci->hi -= 1;
}

/* b / a - 1, or with @diff b - a; NAN where it is not defined */
static double fa_boot__compare(double a_num, double a_den, double b_num, double b_den, bool diff)
{
	if (a_den <= 0 || b_den <= 0)
		return NAN;
	if (diff)
		return b_num / b_den - a_num / a_den;
	return a_num > 0 ? (b_num / b_den) / (a_num / a_den) - 1 : NAN;
}

/*
 * @a_num / @a_den of one recording against @b_num / @b_den of another:
 * their replicates are drawn apart.  No interval where the estimate is
 * not defined.
 */
static bool fa_boot__apart(const struct fa_boot_sum *a_num, const struct fa_boot_sum *a_den,
			   const struct fa_boot_sum *b_num, const struct fa_boot_sum *b_den,
			   bool diff, struct fa_interval *ci)
{
	double est = fa_boot__compare(fa_boot_sum__total(a_num), fa_boot_sum__total(a_den),
				      fa_boot_sum__total(b_num), fa_boot_sum__total(b_den), diff);
	double reps[FA_BOOT_REPS];
	int nr = 0;

	for (int r = 0; r < FA_BOOT_REPS && !isnan(est); r++) {
		int rb = (r + FA_BOOT_REPS / 2) % FA_BOOT_REPS;
		double v = fa_boot__compare(fa_boot_sum__rep(a_num, r), fa_boot_sum__rep(a_den, r),
					    fa_boot_sum__rep(b_num, rb),
					    fa_boot_sum__rep(b_den, rb), diff);

		if (!isnan(v))
			reps[nr++] = v;
	}
	fa_interval__from(ci, isnan(est) ? 0 : est, reps, nr);
	return nr > 1;
}

/*
 * The relative change from @a_num / @a_den of one recording to @b_num /
 * @b_den of another.  Return: whether it has an interval.
 */
bool fa_boot__change_apart(const struct fa_boot_sum *a_num, const struct fa_boot_sum *a_den,
			   const struct fa_boot_sum *b_num, const struct fa_boot_sum *b_den,
			   struct fa_interval *ci)
{
	return fa_boot__apart(a_num, a_den, b_num, b_den, /*diff=*/false, ci);
}

/* The difference of @b_num / @b_den and @a_num / @a_den, as fa_boot__change_apart() */
bool fa_boot__diff_apart(const struct fa_boot_sum *a_num, const struct fa_boot_sum *a_den,
			 const struct fa_boot_sum *b_num, const struct fa_boot_sum *b_den,
			 struct fa_interval *ci)
{
	return fa_boot__apart(a_num, a_den, b_num, b_den, /*diff=*/true, ci);
}

/* The saving from @a to @b (1 - b / a), with its interval */
void fa_boot__saving(const struct fa_boot_sum *a, const struct fa_boot_sum *b,
		     struct fa_interval *ci)
{
	struct fa_interval change;

	fa_boot__change(a, b, &change);
	*ci = (struct fa_interval){ .est = -change.est, .lo = -change.hi, .hi = -change.lo, };
}

/* The share of the replicates in which @a is less than @b */
double fa_boot__prob_less(const struct fa_boot_sum *a, const struct fa_boot_sum *b)
{
	int n = 0;

	for (int r = 0; r < FA_BOOT_REPS; r++)
		n += fa_boot_sum__rep(a, r) < fa_boot_sum__rep(b, r);
	return (double)n / FA_BOOT_REPS;
}

/*
 * "95% interval -1.0% to +2.0%": @ci of a relative change, or of a
 * @saving, as the change it is
 */
const char *fa_interval__str(const struct fa_interval *ci, bool saving, char *buf, size_t size)
{
	double lo = saving ? -ci->hi : ci->lo, hi = saving ? -ci->lo : ci->hi;

	scnprintf(buf, size, "%.0f%% interval %+.1f%% to %+.1f%%", 100 * FA_BOOT_LEVEL, 100 * lo,
		  100 * hi);
	return buf;
}

/* Whether @x is inside the interval: the estimate is not told from it */
bool fa_interval__spans(const struct fa_interval *ci, double x)
{
	return ci->lo <= x && x <= ci->hi;
}

/*
 * How many times the samples it took for the lower end of @ci to reach
 * @threshold (the width of an interval shrinks as one over the square root
 * of the samples), or 0 if the estimate itself does not
 */
double fa_interval__more_samples(const struct fa_interval *ci, double threshold)
{
	double have = ci->est - ci->lo, need = ci->est - threshold;

	if (need <= 0)
		return 0;
	return have <= need ? 1 : (have / need) * (have / need);
}
