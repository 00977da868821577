! exchange: the derived datatypes of Fortran codes, through MPI's Fortran bindings (`use mpi`),
! on 4 ranks. Every value received is checked against a formula of the sender's rank and the
! global index, gaps included.
!  1. A halo exchange on a 2x2 periodic Cartesian grid (a weather model's): the x faces of a
!     local array with a halo of one as a vector of doubles with the array's stride, by
!     MPI_Sendrecv; the y faces as subarrays (MPI_ORDER_FORTRAN), by MPI_Isend, MPI_Irecv and
!     MPI_Waitall. The corners stay as they were.
!  2. A transpose (an FFT's): MPI_Alltoall of a resized vector, a k x k block of the columns
!     each rank holds, received as contiguous doubles.
!  3. A mesh's boundary points: MPI_Type_create_indexed_block of reals, sent and received
!     with the same type around the ring.
!  4. The y face's subarray decoded: MPI_Type_get_envelope and MPI_Type_get_contents.
!  5. An array of a derived type with SEQUENCE described by MPI_Get_address, a struct resized
!     to the element's size, in MPI_Bcast.
!  6. MPI_Pack of two x faces into a character buffer, MPI_Unpack into another array.
! Rank 0 prints "exchange: all N checks passed" when no rank saw a wrong value.
! Open MPI 5.0.11 from PyPI has no Fortran bindings. Cannot run over: ompi5
module exchange_checks
  implicit none
  integer :: n_checks = 0, n_failures = 0, my_rank = -1
contains
  ! Counts one check; reports it on stderr (the first 20) if it failed.
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    n_checks = n_checks + 1
    if (.not. ok) then
      n_failures = n_failures + 1
      if (n_failures <= 20) &
        write (0, '(a,i0,2a)') 'exchange: rank ', my_rank, ': check failed: ', what
    end if
  end subroutine check

  ! Stops the job if an MPI call failed.
  subroutine ok(ierr, what)
    use mpi
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: what
    integer :: ignored
    if (ierr /= MPI_SUCCESS) then
      write (0, '(a,i0,3a,i0)') 'exchange: rank ', my_rank, ': ', what, ' returned ', ierr
      call MPI_Abort(MPI_COMM_WORLD, 2, ignored)
    end if
  end subroutine ok
end module exchange_checks

program exchange
  use mpi
  use exchange_checks
  implicit none
  integer, parameter :: nx = 6, ny = 5, k = 3, n = 4 * k
  integer :: ierr, nprocs, grid, dims(2), west, east, south, north, i, j, q, c, r
  logical :: periods(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, my_rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 4) then
    if (my_rank == 0) write (0, '(a)') 'exchange: needs exactly 4 ranks'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  dims = (/2, 2/)
  periods = (/.true., .true./)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  call ok(ierr, 'MPI_Cart_create')
  call MPI_Cart_shift(grid, 0, 1, west, east, ierr)
  call MPI_Cart_shift(grid, 1, 1, south, north, ierr)

  call halo()
  call transpose_blocks()
  call boundary()
  call bcast_particles()
  call pack_faces()

  call report()
  call MPI_Comm_free(grid, ierr)
  call MPI_Finalize(ierr)

contains

  ! The value of the interior point (i, j) of rank q's array.
  double precision function field(q, i, j)
    integer, intent(in) :: q, i, j
    field = q * 1000 + i * 10 + j
  end function field

  subroutine halo()
    double precision :: a(0:nx + 1, 0:ny + 1)
    ! The rows of the y faces' subarrays (starts count from 0, as the array's indices do):
    ! sent, 1 and ny; received, 0 and ny + 1
    integer, parameter :: rows(4) = (/1, ny, 0, ny + 1/)
    integer :: xface, yface(4), sizes(2), subsizes(2), starts(2), requests(4)
    integer :: ni, na, nd, combiner, ints(8), types(1)
    integer(kind=MPI_ADDRESS_KIND) :: addresses(1)
    a = -1
    do j = 1, ny
      do i = 1, nx
        a(i, j) = field(my_rank, i, j)
      end do
    end do
    ! x faces: ny points, nx + 2 apart
    call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, xface, ierr)
    call ok(ierr, 'MPI_Type_vector')
    call MPI_Type_commit(xface, ierr)
    call MPI_Sendrecv(a(1, 1), 1, xface, west, 1, a(nx + 1, 1), 1, xface, east, 1, grid, &
                      MPI_STATUS_IGNORE, ierr)
    call ok(ierr, 'MPI_Sendrecv west')
    call MPI_Sendrecv(a(nx, 1), 1, xface, east, 2, a(0, 1), 1, xface, west, 2, grid, &
                      MPI_STATUS_IGNORE, ierr)
    call ok(ierr, 'MPI_Sendrecv east')
    ! y faces: rows 1 and ny sent, rows 0 and ny + 1 received, each a subarray of the whole
    sizes = (/nx + 2, ny + 2/)
    subsizes = (/nx, 1/)
    do i = 1, 4
      starts = (/1, rows(i)/)
      call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, &
                                    MPI_DOUBLE_PRECISION, yface(i), ierr)
      call ok(ierr, 'MPI_Type_create_subarray')
      call MPI_Type_commit(yface(i), ierr)
    end do
    call MPI_Irecv(a, 1, yface(3), south, 3, grid, requests(1), ierr)
    call MPI_Irecv(a, 1, yface(4), north, 4, grid, requests(2), ierr)
    call MPI_Isend(a, 1, yface(1), south, 4, grid, requests(3), ierr)
    call MPI_Isend(a, 1, yface(2), north, 3, grid, requests(4), ierr)
    call MPI_Waitall(4, requests, MPI_STATUSES_IGNORE, ierr)
    call ok(ierr, 'MPI_Waitall')
    do j = 1, ny
      call check(a(nx + 1, j) == field(east, 1, j), 'halo: the east x face')
      call check(a(0, j) == field(west, nx, j), 'halo: the west x face')
    end do
    do i = 1, nx
      call check(a(i, ny + 1) == field(north, i, 1), 'halo: the north y face')
      call check(a(i, 0) == field(south, i, ny), 'halo: the south y face')
    end do
    call check(all((/a(0, 0), a(nx + 1, 0), a(0, ny + 1), a(nx + 1, ny + 1)/) == -1), &
               'halo: the corners stay')
    ! The sent row's subarray decoded
    call MPI_Type_get_envelope(yface(1), ni, na, nd, combiner, ierr)
    call check(combiner == MPI_COMBINER_SUBARRAY .and. ni == 8 .and. na == 0 .and. nd == 1, &
               'decode: the envelope of a subarray')
    call MPI_Type_get_contents(yface(1), 8, 0, 1, ints, addresses, types, ierr)
    call ok(ierr, 'MPI_Type_get_contents')
    call check(all(ints == (/2, nx + 2, ny + 2, nx, 1, 1, 1, MPI_ORDER_FORTRAN/)), &
               'decode: the integers of a subarray')
    call check(types(1) == MPI_DOUBLE_PRECISION, 'decode: the type of a subarray')
    do i = 1, 4
      call MPI_Type_free(yface(i), ierr)
    end do
    call MPI_Type_free(xface, ierr)
  end subroutine halo

  ! x(i, c) of rank q: row i of the global n x n matrix, column q * k + c.
  double precision function element(q, i, c)
    integer, intent(in) :: q, i, c
    element = q * 100000 + i * 100 + c
  end function element

  subroutine transpose_blocks()
    double precision :: x(n, k), y(k * k * 4)
    integer :: block, resized
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent
    do c = 1, k
      do i = 1, n
        x(i, c) = element(my_rank, i, c)
      end do
    end do
    y = -1
    ! Rows q * k + 1 to q * k + k of the k columns, for rank q: blocks k rows apart
    call MPI_Type_vector(k, k, n, MPI_DOUBLE_PRECISION, block, ierr)
    call MPI_Type_get_extent(MPI_DOUBLE_PRECISION, lb, extent, ierr)
    call MPI_Type_create_resized(block, 0_MPI_ADDRESS_KIND, k * extent, resized, ierr)
    call MPI_Type_commit(resized, ierr)
    call MPI_Alltoall(x, 1, resized, y, k * k, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    call ok(ierr, 'MPI_Alltoall')
    do q = 0, 3
      do c = 1, k
        do r = 1, k
          call check(y(q * k * k + (c - 1) * k + r) == element(q, my_rank * k + r, c), &
                     'transpose: a block of MPI_Alltoall')
        end do
      end do
    end do
    call MPI_Type_free(block, ierr)
    call MPI_Type_free(resized, ierr)
  end subroutine transpose_blocks

  subroutine boundary()
    integer, parameter :: points = 7
    integer :: at(points) = (/0, 3, 4, 9, 17, 18, 30/)
    real :: mine(40), theirs(40)
    integer :: edge, requests(2), prev, next
    logical :: on_edge
    prev = mod(my_rank + 3, 4)
    next = mod(my_rank + 1, 4)
    do i = 1, 40
      mine(i) = my_rank * 100 + i
    end do
    theirs = -1
    call MPI_Type_create_indexed_block(points, 1, at, MPI_REAL, edge, ierr)
    call ok(ierr, 'MPI_Type_create_indexed_block')
    call MPI_Type_commit(edge, ierr)
    call MPI_Irecv(theirs, 1, edge, prev, 5, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(mine, 1, edge, next, 5, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
    call ok(ierr, 'MPI_Waitall of the boundary')
    do i = 1, 40
      on_edge = any(at + 1 == i)
      if (on_edge) then
        call check(theirs(i) == prev * 100 + i, 'boundary: a point')
      else
        call check(theirs(i) == -1, 'boundary: a gap stays')
      end if
    end do
    call MPI_Type_free(edge, ierr)
  end subroutine boundary

  subroutine bcast_particles()
    type particle
      sequence
      double precision :: x(3)
      integer :: id
      integer :: pad
    end type particle
    type(particle) :: p(3)
    integer :: raw, element_type, blocks(2), types(2)
    integer(kind=MPI_ADDRESS_KIND) :: base, at(2), next_one
    do i = 1, 3
      p(i)%x = merge((/i * 1.5d0, i * 2.5d0, i * 3.5d0/), (/-1d0, -1d0, -1d0/), my_rank == 2)
      p(i)%id = merge(i * 7, -1, my_rank == 2)
      p(i)%pad = -5
    end do
    call MPI_Get_address(p(1), base, ierr)
    call MPI_Get_address(p(1)%x, at(1), ierr)
    call MPI_Get_address(p(1)%id, at(2), ierr)
    call MPI_Get_address(p(2), next_one, ierr)
    at = at - base
    blocks = (/3, 1/)
    types = (/MPI_DOUBLE_PRECISION, MPI_INTEGER/)
    call MPI_Type_create_struct(2, blocks, at, types, raw, ierr)
    call ok(ierr, 'MPI_Type_create_struct')
    call MPI_Type_create_resized(raw, 0_MPI_ADDRESS_KIND, next_one - base, element_type, ierr)
    call MPI_Type_commit(element_type, ierr)
    call MPI_Bcast(p, 3, element_type, 2, MPI_COMM_WORLD, ierr)
    call ok(ierr, 'MPI_Bcast of particles')
    do i = 1, 3
      call check(all(p(i)%x == (/i * 1.5d0, i * 2.5d0, i * 3.5d0/)), 'particles: the coordinates')
      call check(p(i)%id == i * 7, 'particles: the id')
      call check(p(i)%pad == -5, 'particles: the padding stays')
    end do
    call MPI_Type_free(raw, ierr)
    call MPI_Type_free(element_type, ierr)
  end subroutine bcast_particles

  subroutine pack_faces()
    double precision :: a(nx + 2, ny), b(nx + 2, ny)
    character(len=1) :: packed(1000)
    integer :: xface, position, bound
    do j = 1, ny
      do i = 1, nx + 2
        a(i, j) = field(my_rank, i, j)
      end do
    end do
    b = -1
    call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, xface, ierr)
    call MPI_Type_commit(xface, ierr)
    call MPI_Pack_size(2, xface, MPI_COMM_WORLD, bound, ierr)
    position = 0
    call MPI_Pack(a(2, 1), 1, xface, packed, 1000, position, MPI_COMM_WORLD, ierr)
    call MPI_Pack(a(5, 1), 1, xface, packed, 1000, position, MPI_COMM_WORLD, ierr)
    call ok(ierr, 'MPI_Pack')
    call check(position == 2 * ny * 8 .and. bound >= position, 'pack: the bytes packed')
    position = 0
    call MPI_Unpack(packed, 1000, position, b(1, 1), 1, xface, MPI_COMM_WORLD, ierr)
    call MPI_Unpack(packed, 1000, position, b(3, 1), 1, xface, MPI_COMM_WORLD, ierr)
    call ok(ierr, 'MPI_Unpack')
    do j = 1, ny
      do i = 1, nx + 2
        if (i == 1) then
          call check(b(i, j) == field(my_rank, 2, j), 'pack: the first face')
        else if (i == 3) then
          call check(b(i, j) == field(my_rank, 5, j), 'pack: the second face')
        else
          call check(b(i, j) == -1, 'pack: the rest stays')
        end if
      end do
    end do
    call MPI_Type_free(xface, ierr)
  end subroutine pack_faces

  ! Sums the checks and failures over the ranks; rank 0 prints them. A failure ends the job
  ! with a nonzero status.
  subroutine report()
    integer :: mine(2), total(2)
    mine = (/n_checks, n_failures/)
    call MPI_Allreduce(mine, total, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (my_rank == 0) then
      if (total(2) == 0) then
        write (*, '(a,i0,a)') 'exchange: all ', total(1), ' checks passed'
      else
        write (*, '(a,i0,a,i0,a)') 'exchange: ', total(2), ' of ', total(1), ' checks FAILED'
      end if
    end if
    if (total(2) /= 0) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine report
end program exchange
