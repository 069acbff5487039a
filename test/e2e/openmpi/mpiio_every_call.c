/* Every MPI-IO function the runtime wraps (runtime/src/mpi_functions.def),
 * once per rank, under mpirun -np 2: with Open MPI's ABI (pointer handles)
 * when built with mpicc.openmpi, the case the MPI-IO layer's per-ABI copies
 * exist for (runtime/src/mpi_abi.h). Each rank writes its own eight blocks
 * of one shared file with the explicit-offset, individual-pointer,
 * blocking, collective and non-blocking forms, reads them back with the
 * same forms and checks every byte, then uses the shared file pointer
 * (write_shared, write_ordered, iwrite_shared and their reads). The file is
 * opened with hints in an MPI_Info, which the MPIIO_HINTS record reports
 * as the MPI library answers MPI_File_get_info. Prints "verified" and
 * exits 0 only if every call succeeded and every byte read back is right.
 *
 * Usage: mpiio_every_call DIR [blocking-collectives]
 * (DIR/every.bin is written, then deleted). With blocking-collectives the
 * four non-blocking collectives (MPI_File_i{read,write}{,_at}_all) are
 * left out: Open MPI 4.1's romio321 component crashes in them (its ufs
 * driver has none: a call through a null pointer), with or without the
 * runtime. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { Block = 1024, Small = 16 };
static char Wr[Block], Rd[Block];

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "mpiio_every_call: %s failed\n", What);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}
#define OK(call, what) check((call) == MPI_SUCCESS, what)

static void waitFor(MPI_Request *Req, const char *What) {
  OK(MPI_Wait(Req, MPI_STATUS_IGNORE), What);
}

/* Rd holds Bytes bytes of rank Rank's pattern. */
static void same(int Bytes, const char *What) {
  check(memcmp(Rd, Wr, (size_t)Bytes) == 0, What);
  memset(Rd, 0, sizeof(Rd));
}

int main(int argc, char **argv) {
  MPI_File Fh;
  MPI_Info Info;
  MPI_Request Req;
  MPI_Offset Base;
  char Path[4096];
  int Rank, I, Icoll;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  check(argc == 2 || argc == 3,
        "usage: mpiio_every_call DIR [blocking-collectives]");
  Icoll = argc == 2;
  snprintf(Path, sizeof(Path), "%s/every.bin", argv[1]);
  for (I = 0; I < Block; ++I)
    Wr[I] = (char)('a' + (I + Rank) % 26);
  Base = (MPI_Offset)Rank * 8 * Block;

  MPI_Info_create(&Info);
  MPI_Info_set(Info, "cb_buffer_size", "1048576");
  MPI_Info_set(Info, "romio_cb_write", "enable");
  OK(MPI_File_open(MPI_COMM_WORLD, Path, MPI_MODE_CREATE | MPI_MODE_RDWR, Info,
                   &Fh),
     "MPI_File_open");
  MPI_Info_free(&Info);
  OK(MPI_File_set_size(Fh, 16 * Block + 4 * Small), "MPI_File_set_size");
  OK(MPI_File_set_view(Fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
     "MPI_File_set_view");

  /* Writes: blocks 0..7 of this rank. */
  OK(MPI_File_write_at(Fh, Base, Wr, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_write_at");
  OK(MPI_File_write_at_all(Fh, Base + Block, Wr, Block / 4, MPI_INT,
                           MPI_STATUS_IGNORE),
     "MPI_File_write_at_all");
  OK(MPI_File_iwrite_at(Fh, Base + 2 * Block, Wr, Block, MPI_BYTE, &Req),
     "MPI_File_iwrite_at");
  waitFor(&Req, "MPI_Wait (iwrite_at)");
  if (Icoll) {
    OK(MPI_File_iwrite_at_all(Fh, Base + 3 * Block, Wr, Block, MPI_BYTE, &Req),
       "MPI_File_iwrite_at_all");
    waitFor(&Req, "MPI_Wait (iwrite_at_all)");
  } else {
    OK(MPI_File_write_at_all(Fh, Base + 3 * Block, Wr, Block, MPI_BYTE,
                             MPI_STATUS_IGNORE),
       "MPI_File_write_at_all");
  }
  OK(MPI_File_seek(Fh, Base + 4 * Block, MPI_SEEK_SET), "MPI_File_seek");
  OK(MPI_File_write(Fh, Wr, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_write");
  OK(MPI_File_write_all(Fh, Wr, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_write_all");
  OK(MPI_File_iwrite(Fh, Wr, Block, MPI_BYTE, &Req), "MPI_File_iwrite");
  waitFor(&Req, "MPI_Wait (iwrite)");
  if (Icoll) {
    OK(MPI_File_iwrite_all(Fh, Wr, Block, MPI_BYTE, &Req),
       "MPI_File_iwrite_all");
    waitFor(&Req, "MPI_Wait (iwrite_all)");
  } else {
    OK(MPI_File_write_all(Fh, Wr, Block, MPI_BYTE, MPI_STATUS_IGNORE),
       "MPI_File_write_all");
  }
  OK(MPI_File_sync(Fh), "MPI_File_sync");
  MPI_Barrier(MPI_COMM_WORLD);

  /* Reads of the same blocks, each checked. */
  OK(MPI_File_read_at(Fh, Base, Rd, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_read_at");
  same(Block, "read_at's bytes");
  OK(MPI_File_read_at_all(Fh, Base + Block, Rd, Block / 4, MPI_INT,
                          MPI_STATUS_IGNORE),
     "MPI_File_read_at_all");
  same(Block, "read_at_all's bytes");
  OK(MPI_File_iread_at(Fh, Base + 2 * Block, Rd, Block, MPI_BYTE, &Req),
     "MPI_File_iread_at");
  waitFor(&Req, "MPI_Wait (iread_at)");
  same(Block, "iread_at's bytes");
  if (Icoll) {
    OK(MPI_File_iread_at_all(Fh, Base + 3 * Block, Rd, Block, MPI_BYTE, &Req),
       "MPI_File_iread_at_all");
    waitFor(&Req, "MPI_Wait (iread_at_all)");
  } else {
    OK(MPI_File_read_at_all(Fh, Base + 3 * Block, Rd, Block, MPI_BYTE,
                            MPI_STATUS_IGNORE),
       "MPI_File_read_at_all");
  }
  same(Block, "iread_at_all's bytes");
  OK(MPI_File_seek(Fh, Base + 4 * Block, MPI_SEEK_SET), "MPI_File_seek");
  OK(MPI_File_read(Fh, Rd, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_read");
  same(Block, "read's bytes");
  OK(MPI_File_read_all(Fh, Rd, Block, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_read_all");
  same(Block, "read_all's bytes");
  OK(MPI_File_iread(Fh, Rd, Block, MPI_BYTE, &Req), "MPI_File_iread");
  waitFor(&Req, "MPI_Wait (iread)");
  same(Block, "iread's bytes");
  if (Icoll) {
    OK(MPI_File_iread_all(Fh, Rd, Block, MPI_BYTE, &Req), "MPI_File_iread_all");
    waitFor(&Req, "MPI_Wait (iread_all)");
  } else {
    OK(MPI_File_read_all(Fh, Rd, Block, MPI_BYTE, MPI_STATUS_IGNORE),
       "MPI_File_read_all");
  }
  same(Block, "iread_all's bytes");

  /* The shared file pointer, after both ranks' blocks. */
  OK(MPI_File_seek_shared(Fh, 16 * Block, MPI_SEEK_SET),
     "MPI_File_seek_shared");
  OK(MPI_File_write_shared(Fh, Wr, Small, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_write_shared");
  OK(MPI_File_iwrite_shared(Fh, Wr, Small, MPI_BYTE, &Req),
     "MPI_File_iwrite_shared");
  waitFor(&Req, "MPI_Wait (iwrite_shared)");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_write_ordered(Fh, Wr, Small, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_write_ordered");
  OK(MPI_File_seek_shared(Fh, 16 * Block, MPI_SEEK_SET),
     "MPI_File_seek_shared");
  OK(MPI_File_read_shared(Fh, Rd, Small, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_read_shared");
  OK(MPI_File_iread_shared(Fh, Rd, Small, MPI_BYTE, &Req),
     "MPI_File_iread_shared");
  waitFor(&Req, "MPI_Wait (iread_shared)");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_ordered(Fh, Rd, Small, MPI_BYTE, MPI_STATUS_IGNORE),
     "MPI_File_read_ordered");
  OK(MPI_File_close(&Fh), "MPI_File_close");

  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0)
    OK(MPI_File_delete(Path, MPI_INFO_NULL), "MPI_File_delete");
  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0)
    printf("mpiio_every_call: 2 ranks, every MPI-IO call: verified\n");
  MPI_Finalize();
  return 0;
}
