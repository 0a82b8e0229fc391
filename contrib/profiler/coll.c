/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * coll.c - collective wrappers, blocking and non-blocking.  Each counts
 * through its model in coll_model.c, then calls the PMPI version; the
 * non-blocking forms count when they are started, like sends.
 */
#include "commprof.h"

int MPI_Barrier(MPI_Comm comm)
{
	commprof_count_barrier(comm);
	return PMPI_Barrier(comm);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	commprof_count_barrier(comm);
	return PMPI_Ibarrier(comm, request);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root,
	      MPI_Comm comm)
{
	commprof_count_bcast(count, type, root, comm);
	return PMPI_Bcast(buffer, count, type, root, comm);
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype type, int root,
	       MPI_Comm comm, MPI_Request *request)
{
	commprof_count_bcast(count, type, root, comm);
	return PMPI_Ibcast(buffer, count, type, root, comm, request);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	commprof_count_reduce(count, type, root, comm);
	return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request)
{
	commprof_count_reduce(count, type, root, comm);
	return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm,
			    request);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	commprof_count_allreduce(count, type, comm);
	return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request)
{
	commprof_count_allreduce(count, type, comm);
	return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm,
			       request);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm)
{
	commprof_count_gather(sendcount, sendtype, root, comm);
	return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			   recvtype, root, comm);
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request)
{
	commprof_count_gather(sendcount, sendtype, root, comm);
	return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			    recvtype, root, comm, request);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	commprof_count_gather(sendcount, sendtype, root, comm);
	return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
			    displs, recvtype, root, comm);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	commprof_count_gather(sendcount, sendtype, root, comm);
	return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf,
			     recvcounts, displs, recvtype, root, comm,
			     request);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm)
{
	commprof_count_scatter(sendcount, sendtype, root, comm);
	return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			    recvtype, root, comm);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm, MPI_Request *request)
{
	commprof_count_scatter(sendcount, sendtype, root, comm);
	return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			     recvtype, root, comm, request);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	commprof_count_scatterv(sendcounts, sendtype, root, comm);
	return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
			     recvcount, recvtype, root, comm);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	commprof_count_scatterv(sendcounts, sendtype, root, comm);
	return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
			      recvcount, recvtype, root, comm, request);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	commprof_count_allgather(sendbuf, sendcount, sendtype, recvcount,
				 recvtype, comm);
	return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf,
			      recvcount, recvtype, comm);
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request)
{
	commprof_count_allgather(sendbuf, sendcount, sendtype, recvcount,
				 recvtype, comm);
	return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf,
			       recvcount, recvtype, comm, request);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm)
{
	commprof_count_allgatherv(sendbuf, sendcount, sendtype, recvcounts,
				  recvtype, comm);
	return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf,
			       recvcounts, displs, recvtype, comm);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount,
		    MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request)
{
	commprof_count_allgatherv(sendbuf, sendcount, sendtype, recvcounts,
				  recvtype, comm);
	return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf,
				recvcounts, displs, recvtype, comm, request);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm)
{
	commprof_count_alltoall(sendbuf, sendcount, sendtype, recvcount,
				recvtype, comm);
	return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
			     recvtype, comm);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request)
{
	commprof_count_alltoall(sendbuf, sendcount, sendtype, recvcount,
				recvtype, comm);
	return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf,
			      recvcount, recvtype, comm, request);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm)
{
	commprof_count_alltoallv(sendbuf, sendcounts, sendtype, recvcounts,
				 recvtype, comm);
	return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
			      recvcounts, rdispls, recvtype, comm);
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	commprof_count_alltoallv(sendbuf, sendcounts, sendtype, recvcounts,
				 recvtype, comm);
	return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype,
			       recvbuf, recvcounts, rdispls, recvtype, comm,
			       request);
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	commprof_count_alltoallw(sendbuf, sendcounts, sendtypes, recvcounts,
				 recvtypes, comm);
	return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes,
			      recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request)
{
	commprof_count_alltoallw(sendbuf, sendcounts, sendtypes, recvcounts,
				 recvtypes, comm);
	return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes,
			       recvbuf, recvcounts, rdispls, recvtypes, comm,
			       request);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm)
{
	commprof_count_reduce_scatter(recvcounts, type, comm);
	return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op,
				   comm);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype type, MPI_Op op,
			MPI_Comm comm, MPI_Request *request)
{
	commprof_count_reduce_scatter(recvcounts, type, comm);
	return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op,
				    comm, request);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype type, MPI_Op op,
			     MPI_Comm comm)
{
	commprof_count_reduce_scatter_block(recvcount, type, comm);
	return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type,
					 op, comm);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype type, MPI_Op op,
			      MPI_Comm comm, MPI_Request *request)
{
	commprof_count_reduce_scatter_block(recvcount, type, comm);
	return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type,
					  op, comm, request);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
	     MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	commprof_count_scan(count, type, comm);
	return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request)
{
	commprof_count_scan(count, type, comm);
	return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	commprof_count_scan(count, type, comm);
	return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request)
{
	commprof_count_scan(count, type, comm);
	return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request);
}
