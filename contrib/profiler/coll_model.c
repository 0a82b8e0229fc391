/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * coll_model.c - what each collective sends, from whom to whom.
 *
 * A collective is counted as the user data that logically has to go from
 * each rank to each other rank, not as the messages of whatever algorithm
 * the MPI library picks (trees, rings, ...), which depend on the library,
 * its version and its tuning.  Every rank records only what it sends, from
 * its own arguments.  doc/profiler.md states the model of every call; the
 * comments here say why where the choice is not obvious.
 *
 * On an intercommunicator the data goes to the remote group, whose ranks
 * are the ones the calls name (root, counts[k]).  A rooted call's root
 * passes MPI_ROOT, the rest of its group MPI_PROC_NULL.
 */
#include "commprof.h"

/* The translation for `comm` when counting is on; NULL otherwise. */
static const struct commprof_ranks *ranks_for(MPI_Comm comm)
{
	return commprof.active ? commprof_ranks_of(comm) : NULL;
}

/* Is this process the root of a rooted collective? */
static bool is_root(const struct commprof_ranks *r, int root)
{
	return r->inter ? root == MPI_ROOT : root == r->my_rank;
}

/* The peer that receives what a non-root sends to the root; -1 when this
 * process sends nothing (it is the root, or in the root's group). */
static int root_peer(const struct commprof_ranks *r, int root)
{
	if (r->inter)
		return root == MPI_ROOT || root == MPI_PROC_NULL ? -1 : root;
	return root == r->my_rank ? -1 : root;
}

/* The same block to every peer (commprof_count_message skips oneself). */
static void count_to_all(const struct commprof_ranks *r, uint64_t bytes)
{
	int k;

	if (bytes == 0)
		return;
	for (k = 0; k < r->peer_count; k++)
		commprof_count_message(r, k, bytes);
}

void commprof_count_barrier(MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	int k;

	/* No data, but every rank has to hear from every other one: one
	 * empty message per pair, as an allreduce of nothing would be. */
	if (r)
		for (k = 0; k < r->peer_count; k++)
			commprof_count_message(r, k, 0);
}

void commprof_count_bcast(int count, MPI_Datatype type, int root,
			  MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	if (r && is_root(r, root))
		count_to_all(r, commprof_data_bytes(count, type));
}

void commprof_count_reduce(int count, MPI_Datatype type, int root,
			   MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	if (r && root_peer(r, root) >= 0)
		commprof_count_block(r, root_peer(r, root),
				     commprof_data_bytes(count, type));
}

void commprof_count_allreduce(int count, MPI_Datatype type, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	/* Every element of every result depends on every rank's input, so
	 * each rank's buffer logically reaches every other rank.  Modelling
	 * it as a reduce to some rank plus a bcast would invent a hub that
	 * placement would then pull everything towards; this model is
	 * symmetric and adds the same weight to every pair. */
	if (r)
		count_to_all(r, commprof_data_bytes(count, type));
}

void commprof_count_gather(int sendcount, MPI_Datatype sendtype, int root,
			   MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	/* The root's own block (or MPI_IN_PLACE) stays where it is; its
	 * send arguments may then be garbage and are not read. */
	if (r && root_peer(r, root) >= 0)
		commprof_count_block(r, root_peer(r, root),
				     commprof_data_bytes(sendcount, sendtype));
}

void commprof_count_scatter(int sendcount, MPI_Datatype sendtype, int root,
			    MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	if (r && is_root(r, root))
		count_to_all(r, commprof_data_bytes(sendcount, sendtype));
}

void commprof_count_scatterv(const int sendcounts[], MPI_Datatype sendtype,
			     int root, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	int k;

	if (r && is_root(r, root))
		for (k = 0; k < r->peer_count; k++)
			commprof_count_block(r, k,
				commprof_data_bytes(sendcounts[k], sendtype));
}

void commprof_count_allgather(const void *sendbuf, int sendcount,
			      MPI_Datatype sendtype, int recvcount,
			      MPI_Datatype recvtype, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	/* In place, the send arguments are ignored and this rank's block is
	 * its own slot of the receive buffer. */
	if (r)
		count_to_all(r, sendbuf == MPI_IN_PLACE
				? commprof_data_bytes(recvcount, recvtype)
				: commprof_data_bytes(sendcount, sendtype));
}

void commprof_count_allgatherv(const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, const int recvcounts[],
			       MPI_Datatype recvtype, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	if (r)
		count_to_all(r, sendbuf == MPI_IN_PLACE && !r->inter
				? commprof_data_bytes(recvcounts[r->my_rank],
						      recvtype)
				: commprof_data_bytes(sendcount, sendtype));
}

void commprof_count_alltoall(const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, int recvcount,
			     MPI_Datatype recvtype, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	/* In place, what goes to each rank has the size of what comes from
	 * it: the receive arguments describe both. */
	if (r)
		count_to_all(r, sendbuf == MPI_IN_PLACE
				? commprof_data_bytes(recvcount, recvtype)
				: commprof_data_bytes(sendcount, sendtype));
}

void commprof_count_alltoallv(const void *sendbuf, const int sendcounts[],
			      MPI_Datatype sendtype, const int recvcounts[],
			      MPI_Datatype recvtype, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	bool in_place = sendbuf == MPI_IN_PLACE;
	int k;

	if (r)
		for (k = 0; k < r->peer_count; k++)
			commprof_count_block(r, k, in_place
				? commprof_data_bytes(recvcounts[k], recvtype)
				: commprof_data_bytes(sendcounts[k], sendtype));
}

void commprof_count_alltoallw(const void *sendbuf, const int sendcounts[],
			      const MPI_Datatype sendtypes[],
			      const int recvcounts[],
			      const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	bool in_place = sendbuf == MPI_IN_PLACE;
	int k;

	if (r)
		for (k = 0; k < r->peer_count; k++)
			commprof_count_block(r, k, in_place
				? commprof_data_bytes(recvcounts[k], recvtypes[k])
				: commprof_data_bytes(sendcounts[k], sendtypes[k]));
}

/* Block k of `count` elements cut into `parts` nearly equal blocks: exact
 * integers that add up to `count`. */
static int even_share(int64_t count, int parts, int k)
{
	return (int)(count * (k + 1) / parts - count * k / parts);
}

/* Intercommunicator reduce-scatter: this rank's input vector of `count`
 * elements is reduced with its group's and scattered over the remote
 * group by the remote group's recvcounts, which this rank cannot see.
 * Their total is `count` too, so the vector is shared out evenly. */
static void count_inter_reduce_scatter(const struct commprof_ranks *r,
				       int64_t count, MPI_Datatype type)
{
	int k;

	for (k = 0; k < r->peer_count; k++)
		commprof_count_block(r, k, commprof_data_bytes(
				     even_share(count, r->peer_count, k), type));
}

void commprof_count_reduce_scatter(const int recvcounts[], MPI_Datatype type,
				   MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	int64_t count = 0;
	int k;

	if (!r)
		return;
	if (r->inter) {
		for (k = 0; k < r->local_size; k++)
			count += recvcounts[k];
		count_inter_reduce_scatter(r, count, type);
		return;
	}
	/* Block k of the result is made of block k of every rank's input. */
	for (k = 0; k < r->peer_count; k++)
		commprof_count_block(r, k,
				     commprof_data_bytes(recvcounts[k], type));
}

void commprof_count_reduce_scatter_block(int recvcount, MPI_Datatype type,
					 MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);

	if (!r)
		return;
	if (r->inter)
		count_inter_reduce_scatter(r, (int64_t)recvcount
					   * r->local_size, type);
	else
		count_to_all(r, commprof_data_bytes(recvcount, type));
}

void commprof_count_scan(int count, MPI_Datatype type, MPI_Comm comm)
{
	const struct commprof_ranks *r = ranks_for(comm);
	uint64_t bytes;
	int k;

	/* Rank i's input is part of the result of every rank above it (for
	 * MPI_Scan and MPI_Exscan alike).  Not defined on intercommunicators. */
	if (!r || r->inter)
		return;
	bytes = commprof_data_bytes(count, type);
	for (k = r->my_rank + 1; k < r->peer_count; k++)
		commprof_count_block(r, k, bytes);
}
