#define _GNU_SOURCE
#include "file_system.h"

#include "io_filter.h"
#include "json_writer.h"
#include "pages.h"
#include "records.h"

#include <errno.h>
#include <mntent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

/* statfs magics (linux/magic.h and the file systems' own headers) and the
 * names Linux gives those file systems. */
static const struct {
  unsigned long Magic;
  const char *Name;
} Magics[] = {
    {0x0BD00BD0UL, "lustre"},   {0x47504653UL, "gpfs"},
    {0x6969UL, "nfs"},          {0x19830326UL, "beegfs"},
    {0x58465342UL, "xfs"},      {0xEF53UL, "ext4"},
    {0x9123683EUL, "btrfs"},    {0x01021994UL, "tmpfs"},
    {0x794C7630UL, "overlay"},  {0x2FC12FC1UL, "zfs"},
    {0x858458F6UL, "ramfs"},    {0xFF534D42UL, "cifs"},
    {0xFE534D42UL, "smb2"},     {0x65735546UL, "fuse"},
    {0x00C36400UL, "ceph"},     {0x73717368UL, "squashfs"},
    {0xF2F52010UL, "f2fs"},     {0x20030528UL, "orangefs"},
    {0xAAD7AAEAUL, "panfs"},    {0x958458F6UL, "hugetlbfs"},
    {0x4D44UL, "vfat"},         {0x2011BAB0UL, "exfat"},
    {0x5346544EUL, "ntfs"},     {0x9660UL, "iso9660"},
    {0x01161970UL, "gfs2"},     {0x7461636FUL, "ocfs2"},
    {0x62656572UL, "sysfs"},    {0x9FA0UL, "proc"},
    {0x6E736673UL, "nsfs"},
};

/* The mount table at load: mount point and type, in the table's order
 * (a later mount on the same point hides an earlier one). */
struct mount {
  char *Dir;
  size_t Len;
  char *Type;
};
static struct mount *Mounts;
static size_t MountCount;

/* Facts shared by every file of one mount: their text, made once. */
enum { SharedMax = 64 };
static struct {
  size_t Mount;
  unsigned long Magic;
  long Bsize;
  const char *Body;
} Shared[SharedMax];
static int SharedCount;
static struct dftracer_text_store Text;

/* Record lines: any mount point escaped, plus the head and the numbers. */
enum { BodyMax = 6 * DftPathMax + 256, LineMax = BodyMax + 256 };
static char *Line[2];
static char *BodyBuf;

void dftracer_fs_setup(void) {
  FILE *Table = setmntent("/proc/self/mounts", "r");
  struct mntent *M;
  size_t Cap = 0;
  Line[0] = (char *)malloc(2 * LineMax + BodyMax);
  if (Line[0]) {
    Line[1] = Line[0] + LineMax;
    BodyBuf = Line[1] + LineMax;
  }
  if (!Table)
    return;
  while ((M = getmntent(Table)) != NULL) {
    struct mount *Grown;
    if (MountCount == Cap) {
      Cap = Cap ? 2 * Cap : 64;
      if (!(Grown = (struct mount *)realloc(Mounts, Cap * sizeof(*Mounts))))
        break;
      Mounts = Grown;
    }
    Mounts[MountCount].Dir = strdup(M->mnt_dir);
    Mounts[MountCount].Type = strdup(M->mnt_type);
    if (!Mounts[MountCount].Dir || !Mounts[MountCount].Type)
      break;
    Mounts[MountCount].Len = strlen(M->mnt_dir);
    ++MountCount;
  }
  endmntent(Table);
}

/* The deepest mount holding Path; MountCount when none. */
static size_t mountOf(const char *Path, size_t Len) {
  size_t I, Best = MountCount, BestLen = 0;
  for (I = 0; I < MountCount; ++I) {
    const struct mount *M = &Mounts[I];
    int Under = M->Len == 1 && M->Dir[0] == '/'
                    ? 1
                    : Len >= M->Len && memcmp(Path, M->Dir, M->Len) == 0 &&
                          (Len == M->Len || Path[M->Len] == '/');
    if (Under && (Best == MountCount || M->Len >= BestLen)) {
      Best = I;
      BestLen = M->Len;
    }
  }
  return Best;
}

static const char *magicName(unsigned long Magic, const char *MountType) {
  size_t I;
  /* ext2, ext3 and ext4 share a magic; FUSE file systems name themselves. */
  if (Magic == 0xEF53UL && MountType && strncmp(MountType, "ext", 3) == 0)
    return MountType;
  if (Magic == 0x65735546UL && MountType && strncmp(MountType, "fuse", 4) == 0)
    return MountType;
  for (I = 0; I < sizeof(Magics) / sizeof(Magics[0]); ++I)
    if (Magics[I].Magic == Magic)
      return Magics[I].Name;
  return NULL;
}

/* Lustre's layout of Path: stripe size and count from `lustre.lov` (struct
 * lov_user_md v1/v3: magic, pattern, 16-byte object id, then the u32
 * stripe size and the u16 stripe count). 0 when not told. */
static int lustreStripes(const char *Path, unsigned *Size, unsigned *Count) {
  unsigned char Lov[256];
  ssize_t Got = getxattr(Path, "lustre.lov", Lov, sizeof(Lov));
  uint32_t Magic, StripeSize;
  uint16_t StripeCount;
  if (Got < 32)
    return 0;
  memcpy(&Magic, Lov, 4);
  if (Magic != 0x0BD10BD0U && Magic != 0x0BD30BD0U)
    return 0; /* composite (PFL) layouts are not read */
  memcpy(&StripeSize, Lov + 24, 4);
  memcpy(&StripeCount, Lov + 28, 2);
  *Size = StripeSize;
  *Count = StripeCount;
  return 1;
}

static char *putHex(char *Out, unsigned long V) {
  static const char Digits[] = "0123456789abcdef";
  char Tmp[16];
  int N = 0;
  do
    Tmp[N++] = Digits[V & 15];
  while ((V >>= 4) != 0);
  Out = DFTRACER_PUT_LIT(Out, "\"0x");
  while (N)
    *Out++ = Tmp[--N];
  *Out++ = '"';
  return Out;
}

const char *dftracer_fs_describe_locked(const char *Path, size_t Len) {
  struct statfs Fs;
  char Parent[DftPathMax];
  const char *Name, *Body;
  const struct mount *M;
  size_t Mount;
  unsigned StripeSize = 0, StripeCount = 0;
  int Saved = errno, I, Striped = 0;
  char *Out;
  if (!BodyBuf || Len >= DftPathMax)
    return NULL;
  if (statfs(Path, &Fs) != 0) {
    /* Not there (yet: an open that creates it; or any more: a removed
     * directory): the nearest directory above it that is. */
    size_t PLen = Len;
    memcpy(Parent, Path, Len);
    do {
      const char *Slash = (const char *)memrchr(Parent, '/', PLen);
      PLen = Slash && Slash > Parent ? (size_t)(Slash - Parent) : 1;
      Parent[PLen] = '\0';
    } while (statfs(Parent, &Fs) != 0 && PLen > 1);
    if (PLen == 1 && statfs("/", &Fs) != 0) {
      errno = Saved;
      return NULL;
    }
  }
  Mount = mountOf(Path, Len);
  M = Mount < MountCount ? &Mounts[Mount] : NULL;
  Name = magicName((unsigned long)Fs.f_type, M ? M->Type : NULL);
  if ((unsigned long)Fs.f_type == 0x0BD00BD0UL)
    Striped = lustreStripes(Path, &StripeSize, &StripeCount);
  errno = Saved;
  if (!Striped)
    for (I = 0; I < SharedCount; ++I)
      if (Shared[I].Mount == Mount &&
          Shared[I].Magic == (unsigned long)Fs.f_type &&
          Shared[I].Bsize == (long)Fs.f_bsize)
        return Shared[I].Body;
  Out = BodyBuf;
  Out = DFTRACER_PUT_LIT(Out, "\"fs_type\":");
  if (Name) {
    Out = dftracer_put_string(Out, Name, strlen(Name));
  } else {
    Out = DFTRACER_PUT_LIT(Out, "\"unknown\",\"magic\":");
    Out = putHex(Out, (unsigned long)Fs.f_type);
  }
  Out = DFTRACER_PUT_LIT(Out, ",\"mount\":");
  Out = M ? dftracer_put_string(Out, M->Dir, M->Len)
          : DFTRACER_PUT_LIT(Out, "\"/\"");
  Out = DFTRACER_PUT_LIT(Out, ",\"block_size\":");
  Out = dftracer_put_u64(Out, (uint64_t)Fs.f_bsize);
  if (Striped) {
    Out = DFTRACER_PUT_LIT(Out, ",\"stripe_size\":");
    Out = dftracer_put_u64(Out, StripeSize);
    Out = DFTRACER_PUT_LIT(Out, ",\"stripe_count\":");
    Out = dftracer_put_u64(Out, StripeCount);
  }
  Body = dftracer_text_copy(&Text, BodyBuf, (size_t)(Out - BodyBuf));
  if (Body && !Striped && SharedCount < SharedMax) {
    Shared[SharedCount].Mount = Mount;
    Shared[SharedCount].Magic = (unsigned long)Fs.f_type;
    Shared[SharedCount].Bsize = (long)Fs.f_bsize;
    Shared[SharedCount++].Body = Body;
  }
  return Body;
}

const char *dftracer_fs_line_locked(uint64_t Hash, const char *Body,
                                    int Replay, size_t *Len) {
  char *Out = Line[Replay ? 1 : 0];
  if (!Out || !Body)
    return NULL;
  Out = dftracer_record_head(Out, "FS");
  Out = dftracer_record_u64(Out, "fhash", Hash, 1);
  *Out++ = ',';
  Out = dftracer_put_raw(Out, Body, strlen(Body));
  Out = dftracer_record_tail(Out);
  *Len = (size_t)(Out - Line[Replay ? 1 : 0]);
  return Line[Replay ? 1 : 0];
}
