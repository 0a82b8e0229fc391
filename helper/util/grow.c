/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grow.c - growing arrays kept side by side (see util/grow.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int tm__grow_array(void *arrayp, size_t elem, int cap)
{
	void *old, *grown;

	/* through memcpy: arrayp points at a T *, not at a void * */
	memcpy(&old, arrayp, sizeof(old));
	grown = realloc(old, (size_t)cap * elem);
	if (!grown)
		return -1;
	memcpy(arrayp, &grown, sizeof(grown));
	return 0;
}
