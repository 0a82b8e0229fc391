/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * p2p.c - point-to-point wrappers.  Every send is counted at the sender,
 * once per message, in all modes (standard, buffered, synchronous, ready),
 * blocking or not; persistent sends at each start.  Receives are not
 * wrapped: the sender has already counted what they receive.
 */
#include "commprof.h"

static void count_send(int count, MPI_Datatype type, int dest, MPI_Comm comm)
{
	const struct commprof_ranks *r;

	if (!commprof.active || dest == MPI_PROC_NULL)
		return;
	r = commprof_ranks_of(comm);
	if (r)
		commprof_count_message(r, dest, commprof_data_bytes(count, type));
}

static void remember_persistent_send(int rc, MPI_Request request, int count,
				     MPI_Datatype type, int dest,
				     MPI_Comm comm)
{
	const struct commprof_ranks *r;

	if (rc != MPI_SUCCESS || !commprof.active || dest == MPI_PROC_NULL)
		return;
	r = commprof_ranks_of(comm);
	if (r)
		commprof_persistent_remember(request, r, dest,
					     commprof_data_bytes(count, type));
}

/* ---- blocking ---------------------------------------------------- */

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
	     int tag, MPI_Comm comm)
{
	count_send(count, type, dest, comm);
	return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	count_send(count, type, dest, comm);
	return PMPI_Bsend(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	count_send(count, type, dest, comm);
	return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	count_send(count, type, dest, comm);
	return PMPI_Rsend(buf, count, type, dest, tag, comm);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag,
		 MPI_Comm comm, MPI_Status *status)
{
	count_send(sendcount, sendtype, dest, comm);
	return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
			     recvbuf, recvcount, recvtype, source, recvtag,
			     comm, status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	count_send(count, type, dest, comm);
	return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
				     recvtag, comm, status);
}

/* ---- non-blocking ------------------------------------------------ */

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	count_send(count, type, dest, comm);
	return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	count_send(count, type, dest, comm);
	return PMPI_Ibsend(buf, count, type, dest, tag, comm, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	count_send(count, type, dest, comm);
	return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	count_send(count, type, dest, comm);
	return PMPI_Irsend(buf, count, type, dest, tag, comm, request);
}

/* ---- persistent -------------------------------------------------- */

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = PMPI_Send_init(buf, count, type, dest, tag, comm, request);

	remember_persistent_send(rc, *request, count, type, dest, comm);
	return rc;
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = PMPI_Bsend_init(buf, count, type, dest, tag, comm, request);

	remember_persistent_send(rc, *request, count, type, dest, comm);
	return rc;
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = PMPI_Ssend_init(buf, count, type, dest, tag, comm, request);

	remember_persistent_send(rc, *request, count, type, dest, comm);
	return rc;
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	int rc = PMPI_Rsend_init(buf, count, type, dest, tag, comm, request);

	remember_persistent_send(rc, *request, count, type, dest, comm);
	return rc;
}

int MPI_Start(MPI_Request *request)
{
	if (commprof.active)
		commprof_persistent_count_start(*request);
	return PMPI_Start(request);
}

int MPI_Startall(int count, MPI_Request requests[])
{
	int k;

	if (commprof.active)
		for (k = 0; k < count; k++)
			commprof_persistent_count_start(requests[k]);
	return PMPI_Startall(count, requests);
}

int MPI_Request_free(MPI_Request *request)
{
	/* Forget before freeing: once freed, MPI may give the same handle
	 * to a new request. */
	if (commprof.active)
		commprof_persistent_forget(*request);
	return PMPI_Request_free(request);
}
