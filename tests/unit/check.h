/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - the few macros the C unit tests share.
 *
 * Each check prints "ok - what" or "not ok - what (details)" and a test
 * program returns check_status(): 0 when every check passed, 1 otherwise.
 * Keep `what` to what a user would verify, e.g. "ranks 0 and 1 share an L2".
 */
#ifndef TM_TEST_CHECK_H
#define TM_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...) do {                                           \
	check_count++;                                                  \
	if (cond) {                                                     \
		printf("ok - ");                                        \
		printf(__VA_ARGS__);                                    \
		printf("\n");                                           \
	} else {                                                        \
		check_failures++;                                       \
		printf("not ok - ");                                    \
		printf(__VA_ARGS__);                                    \
		printf("  [%s:%d: %s]\n", __FILE__, __LINE__, #cond);   \
	}                                                               \
} while (0)

#define CHECK_INT(got, want, ...) do {                                  \
	long long got_ = (long long)(got), want_ = (long long)(want);  \
	CHECK(got_ == want_, __VA_ARGS__);                              \
	if (got_ != want_)                                              \
		printf("#   got %lld, want %lld\n", got_, want_);       \
} while (0)

#define CHECK_STR(got, want, ...) do {                                  \
	const char *got_ = (got), *want_ = (want);                      \
	int same_ = got_ && want_ && strcmp(got_, want_) == 0;         \
	CHECK(same_, __VA_ARGS__);                                      \
	if (!same_)                                                     \
		printf("#   got \"%s\"\n#  want \"%s\"\n",              \
		       got_ ? got_ : "(null)", want_ ? want_ : "(null)"); \
} while (0)

static inline int check_status(void)
{
	printf("# %d checks, %d failed\n", check_count, check_failures);
	if (check_count == 0)
		printf("# no check ran: that is a failure\n");
	return check_failures || check_count == 0 ? 1 : 0;
}

#endif /* TM_TEST_CHECK_H */
