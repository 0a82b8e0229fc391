/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md - the communication of a molecular dynamics code with a 3D spatial
 * decomposition, as LAMMPS does it: every step, ghost atoms go out in three
 * stages (x, then y including the x ghosts, then z including both), each
 * to the two neighbours of that axis, so the z messages are the largest;
 * forces on ghosts come back the same way in reverse; every 10 steps the
 * thermodynamic output sums the energy (an integer MPI_Allreduce).  The
 * box is taller than wide (aspect 1 : 1.5 : 3, the grid from
 * MPI_Dims_create on it) and atoms are denser towards the top, so
 * neighbours exchange unequal amounts, as in a real system.
 *
 *   md [ATOMS [STEPS]]     ATOMS: atoms of an average rank (2000),
 *                          STEPS (20)
 *
 * Periodic in all three axes, like most MD boxes.
 */
#include <string.h>

#include "kernel.h"

enum { WORDS = 3 }; /* a position or a force: 3 doubles */

typedef struct domain {
	int dims[3], coords[3], nbr[3][2];
	int atoms;               /* this rank's */
	double len[3];           /* subdomain sizes, in cutoff units */
	int ghosts[3];           /* atoms sent per side at each stage */
	int most;                /* largest count any rank sends */
	double *send, *recv;
} domain;

/* A density that grows with height: rank layers near the top hold up to
 * twice the atoms of those near the bottom. */
static int atoms_of(const domain *d, int base)
{
	double h = (d->coords[0] + 0.5) / d->dims[0];
	return (int)(base * (0.67 + 0.67 * h));
}

static void setup(domain *d, MPI_Comm cart, int base)
{
	static const double box[3] = { 3.0, 1.5, 1.0 }; /* z, y, x */
	int sent = 0;

	d->atoms = atoms_of(d, base);
	for (int a = 0; a < 3; a++) {
		MPI_Cart_shift(cart, a, 1, &d->nbr[a][0], &d->nbr[a][1]);
		/* a cube of `base` atoms has side base^(1/3) cutoffs / 2 */
		d->len[a] = box[a] * 8.0 / d->dims[a];
	}
	/* stages go x (axis 2), y (1), z (0); each carries the ghosts so far */
	for (int s = 0; s < 3; s++) {
		int a = 2 - s;
		d->ghosts[a] = (int)((d->atoms + 2 * sent) / d->len[a]) + 1;
		sent += d->ghosts[a];
	}
}

/* One exchange of `per` words per atom, all three stages, forward (ghost
 * positions) or reverse (their forces, z first). */
static int64_t exchange(domain *d, int step, int reverse, MPI_Comm cart)
{
	int64_t got = 0;

	for (int s = 0; s < 3; s++) {
		int a = reverse ? s : 2 - s, count = d->ghosts[a] * WORDS;
		for (int side = 0; side < 2; side++) {
			for (int k = 0; k < count; k++)
				d->send[k] = (double)((k + step * 7 + side) % 1000);
			MPI_Status st;
			int n;
			/* neighbours send what their own density gives */
			MPI_Sendrecv(d->send, count, MPI_DOUBLE,
				     d->nbr[a][side], a, d->recv, d->most,
				     MPI_DOUBLE, d->nbr[a][1 - side], a, cart,
				     &st);
			MPI_Get_count(&st, MPI_DOUBLE, &n);
			for (int k = 0; k < n; k++)
				got += (int64_t)d->recv[k];
		}
	}
	return got;
}

int main(int argc, char **argv)
{
	int rank, size, base, steps, periods[3] = { 1, 1, 1 };
	domain d;
	MPI_Comm cart;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(&d, 0, sizeof(d));
	base = kernel_arg(argc, argv, 1, 2000, "ATOMS", rank);
	steps = kernel_arg(argc, argv, 2, 20, "STEPS", rank);
	if (base < 0 || steps < 0)
		return kernel_usage(rank, NULL);
	MPI_Dims_create(size, 3, d.dims);
	MPI_Cart_create(MPI_COMM_WORLD, 3, d.dims, periods, 0, &cart);
	MPI_Cart_coords(cart, rank, 3, d.coords);
	setup(&d, cart, base);
	int mine = 0;
	for (int a = 0; a < 3; a++)
		mine = d.ghosts[a] > mine ? d.ghosts[a] : mine;
	mine *= WORDS;
	MPI_Allreduce(&mine, &d.most, 1, MPI_INT, MPI_MAX, cart);
	d.send = malloc((size_t)d.most * sizeof(double));
	d.recv = malloc((size_t)d.most * sizeof(double));
	if (!d.send || !d.recv) {
		fprintf(stderr, "md: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(cart);
	double t0 = MPI_Wtime();
	int64_t sum = 0;
	long long energy = 0;
	for (int step = 0; step < steps; step++) {
		sum += exchange(&d, step, 0, cart);
		/* pair forces: ~40 neighbours an atom, ~20 flops a pair */
		kernel_compute(800.0 * d.atoms);
		sum += exchange(&d, step, 1, cart);
		kernel_compute(20.0 * d.atoms); /* integration */
		if (step % 10 == 9) {
			long long mine = d.atoms + step;
			MPI_Allreduce(&mine, &energy, 1, MPI_LONG_LONG,
				      MPI_SUM, cart);
		}
	}
	kernel_report("md", size, t0, sum + (rank == 0 ? energy : 0), cart);
	free(d.send);
	free(d.recv);
	MPI_Comm_free(&cart);
	MPI_Finalize();
	return 0;
}
